#pragma once

#include "check/ConfigContext.h"

// The sinusoid's config reader (FamilySpec::readConfig, docs/ARCHITECTURE.md, Checking a model config).
namespace posenc::SinusoidalConfig {

// Whisper's encoder (sinusoids) and decoder (a learned table), as HF's WhisperEncoder and WhisperDecoder place them.
QList<ConfigLayer> layers(ConfigContext &c);
// The finding kinds it reports (FamilySpec::configFindings).
QList<ConfigFindings::Kind> findings();

} // namespace posenc::SinusoidalConfig
