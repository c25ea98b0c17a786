# The pinned base of the series: Debian's linux-source-6.12 package.
# Everything in this project is built and tested against exactly this.
BASE_PKG	:= linux-source-6.12
BASE_VERSION	:= 6.12.117-1~deb12u1
BASE_TARBALL	:= /usr/src/linux-source-6.12.tar.xz
BASE_SHA256	:= 585a4a074597aefa2b1a68ada83a3184ba351c127544dea80618bbcceaa3961f
BASE_TOPDIR	:= linux-source-6.12
