#pragma once

#include "check/ConfigContext.h"

// The learned family's config reader (FamilySpec::readConfig, docs/ARCHITECTURE.md, Checking a model config).
namespace posenc::LearnedConfig {

// The absolute table a model adds to its input: GPT-2's wpe, BERT's and RoBERTa's position_embeddings with padding_idx,
// BART's and OPT's offset of 2.
QList<ConfigLayer> layers(ConfigContext &c);
// The finding kinds it reports (FamilySpec::configFindings).
QList<ConfigFindings::Kind> findings();

// A table of `rows` rows whose row `first` holds position 0, entering `layers` layers as
// `type` ("input", "encoder", "decoder"): DeBERTa's and Whisper's readers take it too.
ConfigLayer tableLayer(const QString &type, std::int64_t hidden, std::int64_t rows, std::int64_t first,
                       std::int64_t layers);

} // namespace posenc::LearnedConfig
