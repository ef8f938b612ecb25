#pragma once

#include "check/ModelConfigCheck.h"

#include <QString>

// The words the model figures (layer-stack, query-scale, head-map) say of a config's layers, in
// the language of the model's code: what places position, how far a layer attends, the query
// scaling.
namespace posenc::ModelText {

// Whether `encoding` (LayerScheme::encoding) is a mixer that is not attention.
bool isMixer(const QString &encoding);
// "RoPE θ 1,000,000, proportional: 128 of 512 columns turn", "NoPE", "ALiBi, 16 heads",
// "linear attention (Gated DeltaNet, Lightning, KDA)".
QString position(const ConfigLayer &layer);
// "window 1024", "64 each side", "chunks of 8192", "whole context", or empty for a mixer.
QString span(const ConfigLayer &layer);
// "q × (1 + 0.1 ln(⌊(p + 1) / 8192⌋ + 1))", or empty.
QString query(const LayerScheme &scheme);
// A few words for a slide: "RoPE 1e6 · 128/512 · window 1024".
QString terse(const ConfigLayer &layer);
// What turns and what does not, over the model: "36 of 48 layers turn; 12 NoPE".
QString layerNotes(const ConfigCheck &check);

} // namespace posenc::ModelText
