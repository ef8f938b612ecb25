#pragma once

#include "check/ConfigContext.h"

// The 2-D sin-cos table's config reader (FamilySpec::readConfig, docs/ARCHITECTURE.md, Checking a
// model config).
namespace posenc::Sincos2dConfig {

// MAE's table as HF's ViTMAEEmbeddings builds it from a ViTMAEConfig: a grid of image_size /
// patch_size patches a side and the cls token's zero row, added to the patches by column.
QList<ConfigLayer> layers(ConfigContext &c);

} // namespace posenc::Sincos2dConfig
