#!/usr/bin/env bash
# A test engine that misbehaves: hang.
exec bash "$(dirname "$0")/common.sh" hang
