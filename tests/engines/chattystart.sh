#!/usr/bin/env bash
# A test engine that misbehaves: chattystart.
exec bash "$(dirname "$0")/common.sh" chattystart
