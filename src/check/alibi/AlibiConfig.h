#pragma once

#include "check/ConfigContext.h"

// ALiBi's config reader (FamilySpec::readConfig, docs/ARCHITECTURE.md, Checking a model config).
namespace posenc::AlibiConfig {

// Bloom's and MPT's ALiBi layers (Falcon's with alibi true), as HF's models read their keys.
QList<ConfigLayer> layers(ConfigContext &c);
// The finding kinds it reports (FamilySpec::configFindings).
QList<ConfigFindings::Kind> findings();

} // namespace posenc::AlibiConfig
