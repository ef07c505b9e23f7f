#!/bin/bash -eu
# SPDX-License-Identifier: Apache-2.0
# ClusterFuzzLite's build.sh (https://google.github.io/clusterfuzzlite/build-integration/#buildsh):
# the build is Fuzz/oss-fuzz/build.sh, shared with OSS-Fuzz, so both engines build the same
# targets with the same flags.
exec bash "$SRC/tapwire/Fuzz/oss-fuzz/build.sh" "$@"
