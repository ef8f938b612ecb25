#pragma once

#include <cstdint>

namespace posenc {

// Writes around the caches (non-temporal stores), for outputs far larger than the caches: the
// destination's lines are not read first, and do not evict what the kernels keep cached. Each
// function writes with ordinary stores where the destination is not aligned to the vector width.

// Copies `count` floats from src to dst.
void streamCopy(float *dst, const float *src, std::int64_t count);
// Fills `count` floats with `value`.
void streamFill(float *dst, float value, std::int64_t count);
// Orders the streaming stores above before anything that follows (before handing results to
// another thread).
void streamFence();

} // namespace posenc
