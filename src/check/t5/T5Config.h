#pragma once

#include "check/ConfigContext.h"

// T5's config reader (FamilySpec::readConfig, docs/ARCHITECTURE.md, Checking a model config).
namespace posenc::T5Config {

// T5's encoder and decoder: the relative buckets of the first layer of each stack, shared by the others.
QList<ConfigLayer> layers(ConfigContext &c);
// The finding kinds it reports (FamilySpec::configFindings).
QList<ConfigFindings::Kind> findings();

} // namespace posenc::T5Config
