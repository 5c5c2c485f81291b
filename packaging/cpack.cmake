# cpack -G DEB (in the build folder): a .deb of the install layout in packaging/CMakeLists.txt.
# Depends come from the programs' real shared-library dependencies (dpkg-shlibdeps), not a list
# kept by hand; the fonts are a Depends of their own (found at run time through fontconfig).
set(CPACK_PACKAGE_NAME "blockwise")
set(CPACK_PACKAGE_VENDOR "Blockwise")
# The maintainer (Debian's Maintainer field, the changelog's signature and the copyright file's contact):
# a distribution's or a fork's own with -DBLOCKWISE_MAINTAINER=…; the project has no mail domain yet, so
# the default is in the reserved .invalid domain (RFC 2606), not a host lintian refuses (localhost).
set(CPACK_PACKAGE_CONTACT "${BLOCKWISE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "FlashAttention, block by block: a lesson player and its command-line twin")
# (Debian's extended description: lines of at most 80 columns, lintian's limit.)
set(CPACK_PACKAGE_DESCRIPTION "Blockwise teaches how FlashAttention computes exact attention block by
block. A teacher projects a lesson and steps through it with a presentation
clicker; students follow on their own laptops and answer its questions. The
diagrams show which tiles sit in HBM and which in SRAM, the running max, sum
and numerator (m, l, u), and the traffic counters of each step, all computed
by the engine with exact fractions where the inputs allow.
blockwise-cli runs the same engine without a window: it checks lessons,
prints a scenario's numbers and lists the placeholders a lesson may use.")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "education")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "fonts-noto-cjk")
set(CPACK_GENERATOR "DEB")
# cpack and `make install` take what is built and do not first build every target (the tests and
# benchmarks): build blockwise, blockwise-cli and blockwise_package_files (or everything) first.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)
include(CPack)
