# Cross-build for Jetson (aarch64) on an x86 Debian/Ubuntu host.
#   cmake --preset jetson            (Debian's cross compiler + arm64 multiarch libraries)
#   -DJD_SYSROOT=/path/to/l4t/rootfs (optional: build against an L4T root filesystem instead)
# Tests run under qemu-aarch64 through CMAKE_CROSSCOMPILING_EMULATOR.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(JD_CROSS_PREFIX aarch64-linux-gnu- CACHE STRING "Cross tool prefix")
set(CMAKE_C_COMPILER ${JD_CROSS_PREFIX}gcc)

set(JD_SYSROOT "" CACHE PATH "Optional target root filesystem (e.g. an L4T rootfs)")
if(JD_SYSROOT)
  set(CMAKE_SYSROOT ${JD_SYSROOT})
  set(ENV{PKG_CONFIG_SYSROOT_DIR} ${JD_SYSROOT})
  set(ENV{PKG_CONFIG_LIBDIR}
      "${JD_SYSROOT}/usr/lib/aarch64-linux-gnu/pkgconfig:${JD_SYSROOT}/usr/share/pkgconfig")
  set(JD_QEMU_LD_PREFIX ${JD_SYSROOT})
else()
  # Debian multiarch: arm64 -dev packages install beside the host's.
  set(PKG_CONFIG_EXECUTABLE ${JD_CROSS_PREFIX}pkg-config CACHE FILEPATH "")
  # With arm64 multiarch packages installed, libc6:arm64 lives in /lib/aarch64-linux-gnu and
  # the binary must run with its matching ld.so: qemu's -L / finds both. Mixing the cross
  # toolchain's ld.so (/usr/aarch64-linux-gnu, another glibc build) with that libc hangs in
  # pthread_create (seen with libc6-arm64-cross 2.36-8cross1 and libc6:arm64 2.36-9+deb12u14).
  if(EXISTS /lib/aarch64-linux-gnu/libc.so.6)
    set(JD_QEMU_LD_PREFIX /)
  else()
    set(JD_QEMU_LD_PREFIX /usr/aarch64-linux-gnu)
  endif()
endif()

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
if(NOT JD_SYSROOT)
  # Multiarch headers and libraries live under /usr with an aarch64 triplet.
  set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu /usr)
  set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
endif()

# Cortex-A78AE (Orin) under qemu: -cpu max has FP16; the binary picks its paths at run time.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64;-cpu;max;-L;${JD_QEMU_LD_PREFIX})
