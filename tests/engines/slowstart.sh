#!/usr/bin/env bash
# A test engine that misbehaves: slowstart.
exec bash "$(dirname "$0")/common.sh" slowstart
