#pragma once

#include "check/ConfigContext.h"

// DeBERTa's config reader (FamilySpec::readConfig, docs/ARCHITECTURE.md, Checking a model config).
namespace posenc::DebertaConfig {

// DeBERTa-v2's layers: its absolute table where position_biased_input, its relative buckets where relative_attention.
QList<ConfigLayer> layers(ConfigContext &c);
// The finding kinds it reports (FamilySpec::configFindings).
QList<ConfigFindings::Kind> findings();

} // namespace posenc::DebertaConfig
