#pragma once

#include <QJsonObject>
#include <QString>

// What a model's config.json says of its attention and its positions beyond its family's
// parameters (docs/ARCHITECTURE.md, Lessons), as a preset's "params"' "attention" and
// "positions-added" and its "stacks" record them.
namespace posenc::ConfigAttention {

// Whether the model's queries see the keys after them as well as before (an encoder), as its
// reference code builds the mask: by its model_type where it is known, else by the config's own
// words (a masked LM's architecture, is_decoder, is_causal). Otherwise causal, the decoders' mask.
// `config` as read (its text_config's keys first where the text model's keys sit there).
bool bothWays(const QString &modelType, const QJsonObject &config, const QString &textConfig = {});

// Whether the model's layers of `layerType` take a position table added row c to column c, reading
// no position ids, as the model table's row of `modelType` records it (WhisperEncoder.forward:
// inputs_embeds + embed_positions.weight; ViTMAEEmbeddings.forward: + position_embeddings[:, 1:, :]).
bool byColumn(const QString &modelType, const QString &layerType);

// Whether the config is an encoder's and a decoder's (PretrainedConfig.is_encoder_decoder).
bool encoderDecoder(const QJsonObject &config);

} // namespace posenc::ConfigAttention
