#pragma once

// The real models of ALiBi, T5 and DeBERTa the tests name, with their configs' values
// (tests/data/configs/, with their sources in its README.md).
#include "core/Params.h"

namespace relativemodels {

using posenc::Params;

// BLOOM-560m, with its config's values.
inline Params bloom560m()
{
    Params p;
    p.encoding = posenc::Encoding::Alibi;
    p.dModel = 1024;
    p.maxLen = 2048;
    p.alibi.heads = 16; // n_head
    p.alibi.mask = posenc::AlibiMask::Causal;
    return p;
}

// t5-base, with its config's values.
inline Params t5Base()
{
    Params p;
    p.encoding = posenc::Encoding::T5;
    p.dModel = 768;
    p.maxLen = 512; // n_positions
    p.t5.buckets = 32; // relative_attention_num_buckets
    p.t5.maxDistance = 128; // the default: the config has no relative_attention_max_distance
    return p;
}

// deberta-v3-base, with its config's values.
inline Params debertaV3Base()
{
    Params p;
    p.encoding = posenc::Encoding::Deberta;
    p.dModel = 768;
    p.maxLen = 512;
    p.deberta.buckets = 256; // position_buckets
    p.deberta.maxPosition = 512; // max_relative_positions -1: max_position_embeddings
    return p;
}

} // namespace relativemodels
