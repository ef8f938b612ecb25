#pragma once

#include <cstdint>
#include <vector>

namespace posenc {

// The SIMD instruction sets the vectorised kernels (the *Simd.cpp files) are compiled for, and the
// one they run on (docs/ARCHITECTURE.md, Performance). One binary holds every x86-64 target from
// plain scalar code to AVX-512; the best one this CPU supports is chosen at run time (Highway's
// dynamic dispatch), and every target computes the same bits.
namespace SimdTargets {

struct Target
{
    std::int64_t id; // Highway's bit for it
    const char *name; // Highway's name: SCALAR, SSSE3, SSE4, AVX2, AVX3 (AVX-512) ...
};

// The target the kernels run on now.
Target current();
// Every target compiled into the kernels that this CPU can run, best first.
std::vector<Target> available();
// Runs the kernels on `target` (one of available()) from now on, or on the best again for
// `id` 0. For tests: it is not safe while kernels run on other threads.
void select(std::int64_t id);

} // namespace SimdTargets

} // namespace posenc
