#pragma once

#include "check/rope/RopeFit.h"

#include <vector>

// The published RoPE tables the check names (docs/ARCHITECTURE.md, Checking a table): the models'
// RoPE of posenc's presets (resources/presets, each from the model's config.json), base models
// without a preset with the file that publishes them (Llama 3), and LongRoPE's factor lists
// (RopeLongRopeForms). A table of one of these is `correct` against the model by name.
namespace posenc::RopePublishedForms {

std::vector<RopeFit::Published> forms();

// Of the published forms named `names`, those whose pairs are `rotation`'s (their layout), and
// with `deinterleaved` those whose rotation transformers also writes as [evens | odds]
// (RopeFit::Published::deinterleaved). A name of no model's form (RoFormer's) is kept but with
// `deinterleaved`.
QStringList withRotation(const QStringList &names, RopeLayout rotation, bool deinterleaved);

} // namespace posenc::RopePublishedForms
