#!/bin/bash -eu
# SPDX-License-Identifier: Apache-2.0
# Installs the Swift toolchain Tapwire is developed with into /opt/swift (the fuzz images'
# Dockerfiles run it; their base image, gcr.io/oss-fuzz-base/base-builder-swift:ubuntu-24-04,
# carries Swift 6.2.3 in /usr, which cannot compile the package: see "Toolchain" in
# Documentation/fuzzing-and-benchmarks.md). The archive and its signature come from
# download.swift.org and are checked against the keys swift.org publishes
# (https://www.swift.org/install/linux/ , "Installation via Tarball").
#
#   install-swift.sh [VERSION]     default 6.3.1; then put /opt/swift/usr/bin first on PATH
set -euo pipefail
version=${1:-6.3.1}
. /etc/os-release
platform="ubuntu${VERSION_ID}"  # ubuntu24.04
suffix=""
[ "$(uname -m)" = aarch64 ] && suffix="-aarch64"
name="swift-${version}-RELEASE-${platform}${suffix}"
url="https://download.swift.org/swift-${version}-release/${platform//./}${suffix}/swift-${version}-RELEASE/${name}.tar.gz"

apt-get update
apt-get install -y --no-install-recommends ca-certificates curl gnupg2
work=$(mktemp -d)
cd "$work"
curl -fsSL --retry 3 -o swift.tar.gz "$url"
curl -fsSL --retry 3 -o swift.tar.gz.sig "$url.sig"
export GNUPGHOME="$work/gnupg"
mkdir -m 700 "$GNUPGHOME"
curl -fsSL --retry 3 https://www.swift.org/keys/all-keys.asc | gpg --batch --quiet --import -
gpg --batch --verify swift.tar.gz.sig swift.tar.gz
mkdir -p /opt/swift
tar -xzf swift.tar.gz --directory /opt/swift --strip-components=1
cd /
rm -rf "$work"
/opt/swift/usr/bin/swift --version
