#!/usr/bin/env bash
# A test engine that misbehaves: illegal.
exec bash "$(dirname "$0")/common.sh" illegal
