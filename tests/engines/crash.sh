#!/usr/bin/env bash
# A test engine that misbehaves: crash.
exec bash "$(dirname "$0")/common.sh" crash
