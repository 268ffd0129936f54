#!/usr/bin/env bash
# A real engine that also writes to its standard error: one line there, then it becomes the
# command it is given (e.g. `noisy.sh /path/to/fanorona engine`), which speaks the protocol.
echo "noisy: starting $*" >&2
exec "$@"
