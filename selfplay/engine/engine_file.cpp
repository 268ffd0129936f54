#include "selfplay/engine/engine_file.h"
#include "selfplay/formats/json_text.h"

#include <stdexcept>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/files.h"
#include "selfplay/formats/formats.h"

namespace fanorona {

namespace {

using Json = nlohmann::json;

// A member's value as setting text: a string as it is, a number as JSON writes it.
std::string setting_text(const Json& v, const std::string& where) {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number()) return to_json_text(v);
    throw std::invalid_argument(where + ": expected a string or a number");
}

// nlohmann's message without its "[json.exception.parse_error.101] " prefix.
std::string json_error(const std::exception& e) {
    std::string what = e.what();
    if (what.rfind("[json.exception.", 0) == 0)
        if (const auto end = what.find("] "); end != std::string::npos) what.erase(0, end + 2);
    return what;
}

} // namespace

const SpecSettings* EngineFile::find(const std::string& name) const {
    for (const auto& [n, settings] : engines)
        if (n == name) return &settings;
    return nullptr;
}

namespace {

// `text` parsed as JSON, refusing a key given twice in one object (nlohmann would keep the last
// silently) and a number beyond a double (1e400), with messages naming `path`.
Json parse_engines_json(const std::string& path, const std::string& text) {
    // The keys seen in each object being parsed, innermost last.
    std::vector<std::unordered_set<std::string>> keys;
    const Json::parser_callback_t check = [&](int, Json::parse_event_t event, Json& parsed) {
        if (event == Json::parse_event_t::object_start) keys.emplace_back();
        if (event == Json::parse_event_t::object_end && !keys.empty()) keys.pop_back();
        if (event == Json::parse_event_t::key && !keys.empty() &&
            !keys.back().insert(parsed.get<std::string>()).second)
            throw std::invalid_argument(path + ": the key \"" + parsed.get<std::string>() +
                                        "\" appears twice in one object");
        return true;
    };
    try {
        return Json::parse(text, check);
    } catch (const Json::parse_error& e) {
        throw std::invalid_argument(path + ": not JSON: " + json_error(e));
    } catch (const Json::out_of_range& e) { // 406: "number overflow parsing '1e400'"
        std::string what = json_error(e);
        const auto open = what.find('\'');
        const auto close = what.rfind('\'');
        if (open != std::string::npos && close > open)
            what = what.substr(open + 1, close - open - 1);
        throw std::invalid_argument(path + ": the number " + what +
                                    " is out of range (beyond a double)");
    }
}

} // namespace

EngineFile read_engine_file(const std::string& path) {
    EngineFile file;
    file.path = path;
    Json j;
    try {
        j = parse_engines_json(path, read_text_file(path, kEnginesFileLimits));
    } catch (const std::invalid_argument&) {
        throw;
    } catch (const std::exception& e) { // FileError: it names the file
        throw std::invalid_argument(e.what());
    }
    if (!j.is_object() || !j.contains("engines") || !j["engines"].is_array())
        throw std::invalid_argument(path +
                                    ": expected an object {\"engines\": [{\"name\": ...}, ...]}");
    for (const auto& [key, value] : j.items())
        if (key != "engines")
            throw std::invalid_argument(path + ": \"" + key +
                                        "\": unknown member (an engines file holds \"engines\")");
    const Json& list = j["engines"];
    std::unordered_set<std::string> names; // a set, so that a long file loads in linear time
    for (std::size_t i = 0; i < list.size(); ++i) {
        const Json& e = list[i];
        std::string where = path + ": engines[" + std::to_string(i) + "]";
        if (!e.is_object()) throw std::invalid_argument(where + ": expected an object");
        if (!e.contains("name") || !e["name"].is_string())
            throw std::invalid_argument(where + ": \"name\": a string is required");
        const std::string name = e["name"].get<std::string>();
        where += " (" + name + ")";
        if (!names.insert(name).second)
            throw std::invalid_argument(where + ": a second engine named " + name);
        SpecSettings settings;
        for (const auto& [key, value] : e.items()) {
            const std::string member = where + ": \"" + key + "\"";
            if (key == "conf")
                throw std::invalid_argument(member + ": an entry cannot name another (conf=)");
            if (key == "options") {
                if (!value.is_object())
                    throw std::invalid_argument(member + ": expected an object {\"NAME\": VALUE}");
                for (const auto& [option, v] : value.items())
                    settings.emplace_back("option." + option,
                                          setting_text(v, member + ": \"" + option + "\""));
                continue;
            }
            if (key == "arg" && value.is_array()) { // one argument per element, in order
                for (const Json& a : value) settings.emplace_back(key, setting_text(a, member));
                continue;
            }
            settings.emplace_back(key, setting_text(value, member));
        }
        // Each entry is checked whole now; an error of one setting names its member.
        std::size_t failed = 0;
        try {
            (void)EngineSpec::from_settings(settings, &failed);
        } catch (const std::exception& error) {
            std::string at;
            if (failed < settings.size()) {
                const std::string& key = settings[failed].first;
                at = ": \"" + (key.rfind("option.", 0) == 0 ? std::string("options") : key) + "\"";
            }
            throw std::invalid_argument(where + at + ": " + error.what());
        }
        file.engines.emplace_back(name, std::move(settings));
    }
    return file;
}

namespace {

// from_settings, an error of one of the first `each` settings marked as --each's.
EngineSpec settings_spec(const SpecSettings& settings, std::size_t each) {
    std::size_t failed = settings.size();
    try {
        return EngineSpec::from_settings(settings, &failed);
    } catch (const std::invalid_argument& e) {
        if (failed < each) throw std::invalid_argument(std::string(e.what()) + " (from --each)");
        throw;
    }
}

} // namespace

EngineSpec player_spec(const std::string& text, const EngineFile* file, const SpecSettings& each) {
    SpecSettings given = split_settings(text);
    std::string conf;
    for (auto it = given.begin(); it != given.end();)
        if (it->first == "conf") {
            if (!conf.empty()) throw std::invalid_argument("conf= given twice");
            conf = it->second;
            it = given.erase(it);
        } else {
            ++it;
        }
    if (conf.empty()) {
        SpecSettings settings = each;
        settings.insert(settings.end(), given.begin(), given.end());
        return settings_spec(settings, each.size());
    }
    if (!file)
        throw std::invalid_argument("conf=" + conf + ": no engines file given (--engines FILE)");
    const SpecSettings* entry = file->find(conf);
    if (!entry) {
        std::string names;
        for (const auto& [n, settings] : file->engines) names += (names.empty() ? "" : ", ") + n;
        throw std::invalid_argument("conf=" + conf + ": no engine of that name in " + file->path +
                                    " (" + (names.empty() ? "none" : names) + ")");
    }
    SpecSettings settings = each;
    settings.insert(settings.end(), entry->begin(), entry->end());
    settings.insert(settings.end(), given.begin(), given.end());
    try {
        return settings_spec(settings, each.size());
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument("conf=" + conf + ": " + e.what());
    }
}

} // namespace fanorona
