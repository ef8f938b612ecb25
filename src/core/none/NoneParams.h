#pragma once

// The none family's parameters (NoPE, docs/ARCHITECTURE.md, Encoding families): it has none, and
// Params holds the empty group as `params.none` like every family's.
namespace posenc {

struct NoneParams
{
    friend bool operator==(const NoneParams &, const NoneParams &) = default;
};

} // namespace posenc
