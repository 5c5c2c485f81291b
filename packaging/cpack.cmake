# cpack -G DEB (in the build folder): a .deb of the install layout in packaging/CMakeLists.txt.
# Depends come from the programs' real shared-library dependencies (dpkg-shlibdeps), not a list
# kept by hand; the fonts are a Depends of their own (found at run time through fontconfig).
set(CPACK_PACKAGE_NAME "blockwise")
set(CPACK_PACKAGE_VENDOR "Blockwise")
set(CPACK_PACKAGE_CONTACT "Blockwise maintainers <blockwise@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "FlashAttention, block by block: a lesson player and its command-line twin")
set(CPACK_PACKAGE_DESCRIPTION "Blockwise teaches how FlashAttention computes exact attention block by block: lessons, scenarios, exact fractions, HBM/SRAM diagrams.")
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
