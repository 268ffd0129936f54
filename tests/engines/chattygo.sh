#!/usr/bin/env bash
# A test engine that misbehaves: chattygo.
exec bash "$(dirname "$0")/common.sh" chattygo
