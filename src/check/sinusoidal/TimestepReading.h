#pragma once

#include "check/sinusoidal/SinusoidalDeclared.h"

#include <optional>

// The timesteps a declared sinusoid's rows hold, read row by row from their angles
// (docs/ARCHITECTURE.md, Checking a table): a timestep table need not start at 0 nor step by one.
// diffusers calls get_timestep_embedding on whatever timesteps the scheduler gives
// (huggingface/diffusers src/diffusers/schedulers/scheduling_ddim.py, DDIMScheduler.set_timesteps:
// "leading" (arange(0, n) * step_ratio).round()[::-1] + steps_offset, "trailing"
// round(arange(T, 0, -step_ratio)) - 1, 999, 979, ..., 19 for 50 of 1000; flow-matching schedulers
// sigmas * 1000, of no grid), and a port may give them in [0, 1]. Each row's timestep is its
// slowest pair's angle over its frequency, refined pair by pair towards the fastest; the rows are
// then c times integer timesteps for the largest c that makes them so (c = 0.001: timesteps in
// [0, 1] where the embedding takes [0, 1000), positions-scaled), or of no such c, which is said.
namespace posenc::TimestepReading {

// What the rows' timesteps are against the declared sinusoid's (row r at position r), where every
// sampled row is the declared sinusoid at its own timestep, with at most `mostOff` cells off, and
// they are not the rows' positions; nothing else.
std::optional<SinusoidalDeclared::Differences> read(const SinusoidalFit::FitInput &input,
                                                    const SinusoidalFit::Hypothesis &declared, std::int64_t mostOff);

} // namespace posenc::TimestepReading
