#!/usr/bin/env bash
# A test engine that misbehaves: malformed.
exec bash "$(dirname "$0")/common.sh" malformed
