#pragma once

#include <QJsonObject>
#include <QString>

// Whether a model's config.json makes its queries see the keys after them as well as before (an
// encoder), by its model_type as its reference code builds the mask (docs/ARCHITECTURE.md,
// Lessons), as a preset's "attention": "both-ways" records it. A model_type not known here is
// taken as causal, the decoders' mask, unless its family's parameters say otherwise.
namespace posenc::ConfigAttention {

// `config` as read (its text_config's keys first where the text model's keys sit there).
bool bothWays(const QString &modelType, const QJsonObject &config, const QString &textConfig = {});

} // namespace posenc::ConfigAttention
