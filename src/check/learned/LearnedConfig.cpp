// The learned family's config reader, as HF transformers' models read their configs: GPT-2's wpe,
// BERT's and RoBERTa's position_embeddings with padding_idx, BART's and OPT's offset of 2.
#include "LearnedConfig.h"

using namespace Qt::StringLiterals;

namespace posenc {

// A table of `rows` rows whose row `first` holds position 0.
ConfigLayer LearnedConfig::tableLayer(const QString &type, std::int64_t hidden, std::int64_t rows, std::int64_t first,
                                      std::int64_t layers)
{
    ConfigLayer layer;
    layer.layerType = type;
    layer.layers = layerRange(layers);
    const std::int64_t positions = std::max<std::int64_t>(rows - first, 1);
    layer.params = configParams(hidden, positions);
    layer.params.encoding = Encoding::Learned;
    layer.params.learned.offset = std::min<std::int64_t>(first, Params::kMaxPositionOffset);
    layer.values = {
        {u"rows"_s, rows}, {u"first_position_row"_s, first}, {u"positions"_s, positions}, {u"hidden_size"_s, hidden}};
    return layer;
}

QList<ConfigLayer> LearnedConfig::layers(ConfigContext &c)
{
    const ConfigObject &t = c.text;
    const ModelRow &row = c.model;
    const auto keys = [&](const QString &key, const QStringList &more) { return QStringList {row.keyName(key)} + more; };
    const auto fallback = [&](const QString &key, double value) {
        return std::int64_t(row.number(row.keyName(key)).value_or(value));
    };
    const std::int64_t hidden = c.integerOr(keys(u"hidden_size"_s, {u"d_model"_s}), 1, ConfigBounds::kMaxCount,
                                            fallback(u"hidden_size"_s, 768), false);
    const std::int64_t layers = c.integerOr(keys(u"num_hidden_layers"_s, {u"encoder_layers"_s, u"num_layers"_s}), 1,
                                            ConfigBounds::kMaxLayers, fallback(u"num_hidden_layers"_s, 12), false);
    const std::int64_t maxPositions = c.integerOr(keys(u"max_position_embeddings"_s, {}), 1, ConfigBounds::kMaxCount,
                                                  fallback(u"max_position_embeddings"_s, 512), true);
    // Where position 0 sits: row 0; row 2 of max_position_embeddings + 2 (BART's and OPT's
    // LearnedPositionalEmbedding); or padding_idx + 1 (RoBERTa's create_position_ids_from_input_ids).
    const QJsonValue firstRow = row.raw.value(u"first_row"_s);
    if (firstRow.toInt() == 2) {
        c.find(u"learned-offset"_s,
               u"%1's table has max_position_embeddings + 2 = %2 rows and position 0 at row 2 (its "
               "offset of 2): a table read from row 0 is shifted by two positions (transformers#20761)"_s.arg(row.type)
                   .arg(maxPositions + 2));
        if (!row.raw.contains(u"stacks"_s))
            return {LearnedConfig::tableLayer(u"input"_s, hidden, maxPositions + 2, 2, layers)};
        const std::int64_t decoderLayers
            = c.integerOr({u"decoder_layers"_s}, 1, ConfigBounds::kMaxLayers, layers, false);
        return {LearnedConfig::tableLayer(u"encoder"_s, hidden, maxPositions + 2, 2, layers),
                LearnedConfig::tableLayer(u"decoder"_s, hidden, maxPositions + 2, 2, decoderLayers)};
    }
    std::int64_t first = 0;
    if (firstRow.toString() == u"pad+1"_s) {
        const std::int64_t pad = t.integer(u"pad_token_id"_s, 0, ConfigBounds::kMaxCount).value_or(1);
        first = pad + 1;
        c.find(u"learned-offset"_s,
               u"position ids start at pad_token_id + 1 = %1: rows 0..%2 of the %3 belong to padding, so %4 "
               "positions are usable, not %3 (transformers#20761)"_s.arg(first)
                   .arg(first - 1)
                   .arg(maxPositions)
                   .arg(maxPositions - first),
               u"input"_s);
    }
    return {LearnedConfig::tableLayer(u"input"_s, hidden, maxPositions, first, layers)};
}

QList<ConfigFindings::Kind> LearnedConfig::findings()
{
    return {
        {u"learned-offset"_s, Severity::Note, u"a learned table whose first rows belong to padding"_s},
    };
}

} // namespace posenc
