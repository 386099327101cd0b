# Debian package (CPack): `cpack --preset host` or `cpack --preset jetson` writes
# build/<preset>/packages/jetdepth_<version>_<arch>.deb with the binary, the board files,
# the default configuration in /etc/jetdepth/ and the systemd unit (packaging/README.md).
set(JD_PKG_DIR ${CMAKE_CURRENT_LIST_DIR})

install(FILES
  ${PROJECT_SOURCE_DIR}/boards/agx-orin.board
  ${PROJECT_SOURCE_DIR}/boards/host.board
  ${PROJECT_SOURCE_DIR}/boards/orin-nano.board
  ${PROJECT_SOURCE_DIR}/boards/orin-nx.board
  ${PROJECT_SOURCE_DIR}/boards/thor.board
  ${PROJECT_SOURCE_DIR}/boards/soc-orin.inc
  ${PROJECT_SOURCE_DIR}/boards/soc-thor.inc
  ${PROJECT_SOURCE_DIR}/boards/README.md
  DESTINATION ${CMAKE_INSTALL_DATADIR}/jetdepth/boards)
# Absolute destinations: /etc and /lib/systemd are fixed places whatever the prefix.
install(FILES ${JD_PKG_DIR}/jetdepth.conf ${JD_PKG_DIR}/run.conf DESTINATION /etc/jetdepth)
install(FILES ${JD_PKG_DIR}/jetdepth.service DESTINATION /lib/systemd/system)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${JD_PKG_DIR}/copyright
  DESTINATION ${CMAKE_INSTALL_DOCDIR})
# RViz 2's view of the ROS 2 topics (docs/ros2.md)
install(FILES ${JD_PKG_DIR}/jetdepth.rviz DESTINATION ${CMAKE_INSTALL_DATADIR}/jetdepth)

if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
  set(JD_DEB_ARCH arm64)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  set(JD_DEB_ARCH amd64)
else()
  set(JD_DEB_ARCH ${CMAKE_SYSTEM_PROCESSOR})
endif()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME jetdepth)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "jetdepth maintainers <jetdepth@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Stereo depth and 3D sensing daemon for robots on Jetson")
# The binary looks for its boards under its own install prefix: package with that prefix.
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE ${JD_DEB_ARCH})
set(CPACK_DEBIAN_FILE_NAME jetdepth_${PROJECT_VERSION}_${JD_DEB_ARCH}.deb)
set(CPACK_DEBIAN_PACKAGE_SECTION misc)
# Names differ between Debian 12 and Ubuntu 22.04/24.04 (JetPack 6/7): accept either.
set(CPACK_DEBIAN_PACKAGE_DEPENDS
  "libc6 (>= 2.34), libturbojpeg0 | libturbojpeg, libpng16-16 | libpng16-16t64, libyaml-0-2, libmicrohttpd12 | libmicrohttpd12t64, passwd")
# --ros2 loads Cyclone DDS's runtime when asked (app/ros2/ddsc_api.h): recommended, not
# needed to install or to run without --ros2
if(JD_HAVE_ROS2)
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libddsc0debian | libddsc0t64")
endif()
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
  ${JD_PKG_DIR}/conffiles ${JD_PKG_DIR}/postinst ${JD_PKG_DIR}/prerm ${JD_PKG_DIR}/postrm)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# The binary ships stripped; its debug symbols go to jetdepth-dbgsym (a .ddeb beside it),
# for gdb and crash reports on a board (the build keeps -g: code is the same with or without).
# (CPackDeb splits and strips the ELF files itself: CPACK_STRIP_FILES would strip them first
# and leave no symbols to split.)
set(CPACK_DEBIAN_DEBUGINFO_PACKAGE ON)
# the target's binutils: the build machine's objcopy may not know aarch64 ELF
if(CMAKE_OBJCOPY AND CMAKE_READELF)
  set(CPACK_OBJCOPY_EXECUTABLE ${CMAKE_OBJCOPY})
  set(CPACK_READELF_EXECUTABLE ${CMAKE_READELF})
endif()
include(CPack)
