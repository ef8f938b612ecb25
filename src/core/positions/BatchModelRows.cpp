#include "BatchModelRows.h"

#include "BatchLayout.h"
#include "core/FamilySpec.h"
#include "core/NumberText.h"
#include "core/TrContext.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::BatchModelRows {

namespace {

constexpr std::int64_t kMaxScale = Params::kMaxLen;

constexpr TrContext tr {"BatchModelRows"};

ParamSpec attnScaleRow()
{
    ParamSpec s = ParamRows::optionalNumber(u"attn-scale"_s, ParamGroup::Batch,
                                            [](Params &p) -> std::optional<double> & { return p.batch.attnScale; });
    s.help = u"Llama 4's attn_scale: its NoPE layers' queries times log1p(floor((p + 1) / floor_scale)) *\n"
             "      attn_scale + 1 (Llama 4: 0.1); unset: no temperature"_s;
    s.label = u"attn_scale"_s;
    s.allowed = [](const Params &) { return u"unset or a number in [0, 100]"_s; };
    s.check = [](const Params &p) -> std::optional<ParamError> {
        const auto &v = p.batch.attnScale;
        if (v && !(*v >= 0.0 && *v <= 100.0))
            return ParamError {u"attn-scale"_s, u"unset or a number in [0, 100]"_s, QString(), NumberText::exact(*v)};
        return std::nullopt;
    };
    s.formula = [](const Params &) {
        return tr("Llama 4's temperature on its NoPE layers: the queries times log1p(floor((p + 1) / floor_scale)) · "
                  "attn_scale + 1 (Llama4TextAttention.forward), p the token's cache_position, its column in the "
                  "batch, not its position id.");
    };
    return s;
}

ParamSpec floorScaleRow()
{
    ParamSpec s = ParamRows::integer(
        u"floor-scale"_s, ParamGroup::Batch, [](Params &p) -> std::int64_t & { return p.batch.floorScale; },
        [](const Params &) {
            return std::pair<std::int64_t, std::int64_t> {1, kMaxScale};
        });
    s.help = u"Llama 4's floor_scale, the positions a step of its temperature takes"_s;
    s.label = u"floor_scale"_s;
    s.controlMin = 0;
    s.controlMax = kMaxScale;
    s.idle = [](const Params &p) -> std::optional<IdleReason> {
        if (!p.batch.attnScale)
            return IdleReason {IdleReason::Code::NoTemperature, tr("attn_scale is unset: no temperature.")};
        return std::nullopt;
    };
    s.formula = [](const Params &p) {
        return tr("The temperature steps up once every floor_scale positions: first at position %1.")
            .arg(p.batch.floorScale - 1);
    };
    return s;
}

// A count of positions that may be unset (none), in [1, kMaxScale]: attention-chunk and
// sliding-window read and check their word alike.
ParamSpec unsetOrPositions(const QString &name, std::optional<std::int64_t> BatchParams::*member, const QString &label,
                           const QString &help)
{
    ParamSpec s = ParamRows::optionalInteger(
        name, ParamGroup::Batch, [member](Params &p) -> std::optional<std::int64_t> & { return p.batch.*member; },
        [](const Params &) {
            return std::pair<std::int64_t, std::int64_t> {1, kMaxScale};
        },
        QString());
    s.valueName = u"N|unset"_s;
    s.unsetText = u"unset"_s;
    s.help = help;
    s.label = label;
    s.controlMin = 0;
    s.controlMax = kMaxScale;
    s.parse = [](const QString &t) -> std::optional<ParamValue> {
        const QString w = t.trimmed();
        if (w.isEmpty() || w == u"unset"_s)
            return ParamValue(std::monostate {});
        if (const auto v = ParamRows::parseInteger(w))
            return ParamValue(*v);
        return std::nullopt;
    };
    s.allowed = [](const Params &) { return u"unset or "_s + ParamRows::integerRange(1, kMaxScale); };
    s.check = [name, member](const Params &p) -> std::optional<ParamError> {
        const auto &v = p.batch.*member;
        if (v && (*v < 1 || *v > kMaxScale))
            return ParamError {name, u"unset or "_s + ParamRows::integerRange(1, kMaxScale), QString(),
                               QString::number(*v)};
        return std::nullopt;
    };
    return s;
}

ParamSpec chunkRow()
{
    ParamSpec s = unsetOrPositions(
        u"attention-chunk"_s, &BatchParams::chunk, u"attention_chunk"_s,
        u"Llama 4's attention_chunk_size: a query sees only the keys of its chunk (Llama 4: 8192);\n"
        "      unset: no chunks"_s);
    s.formula = [](const Params &) {
        return tr("Llama 4's chunked attention: a query sees the keys of its own chunk, (column − left padding) // "
                  "attention_chunk_size as masking_utils' chunked_overlay counts it.");
    };
    return s;
}

ParamSpec windowRow()
{
    ParamSpec s = unsetOrPositions(
        u"sliding-window"_s, &BatchParams::window, u"sliding_window"_s,
        u"the config's sliding_window: a causal query sees only the keys fewer than N positions\n"
        "      before it (Mistral 7B: 4096); unset: no window"_s);
    s.formula = [](const Params &p) {
        return p.batch.window ? tr("Sliding window: a query sees the keys fewer than %1 positions before it, as "
                                   "masking_utils' sliding_window_overlay keeps them (q − k < sliding_window).")
                                    .arg(*p.batch.window)
                              : tr("No sliding window: a query sees every key its mask lets it.");
    };
    return s;
}

// The model's mask where its family's parameters do not set it (BatchLayout::attendsBothWays).
ParamSpec attentionRow()
{
    ParamSpec s = ParamRows::choice(u"attention"_s, ParamGroup::Batch, &Params::batch, &BatchParams::attention,
                                    {u"causal"_s, u"both-ways"_s});
    s.help = u"the model's mask: causal, a query sees the keys up to its own (a decoder), or both-ways,\n"
             "      the keys after it too (an encoder: BERT, ModernBERT, the Whisper and vision encoders)"_s;
    s.label = u"attention"_s;
    s.idle = [](const Params &p) -> std::optional<IdleReason> {
        if (Families::spec(p.encoding).attendsBothWays)
            return IdleReason {IdleReason::Code::FamilySetting,
                               tr("%1's own parameters set its mask.").arg(Families::spec(p.encoding).heading)};
        return std::nullopt;
    };
    s.formula = [](const Params &p) {
        return BatchLayout::attendsBothWays(p)
            ? tr("Both ways: every query sees every key of its document, before and after it, as an encoder's "
                 "mask lets it.")
            : tr("Causal: a query sees the keys up to its own, as a decoder's mask lets it.");
    };
    return s;
}

// How the model's code adds its position term (Positions): a preset's "params" and a config's
// model table row set it (ConfigAttention::byColumn).
ParamSpec positionsRow()
{
    ParamSpec s = ParamRows::choice(u"positions-added"_s, ParamGroup::Batch, &Params::batch, &BatchParams::positions,
                                    {u"by-id"_s, u"by-column"_s});
    s.help = u"how the model's code adds its position term: by-id, the row of each token's position id\n"
             "      (BERT, a decoder), or by-column, row c to column c, reading no ids (the Whisper encoder,\n"
             "      MAE's and DiT's patches); by-column, every choice of ids is the column"_s;
    s.label = u"positions added"_s;
    s.formula = [](const Params &p) {
        return p.batch.positions == Positions::ByColumn
            ? tr("By column: the model adds row c of its table to column c and reads no position ids "
                 "(WhisperEncoder.forward), so padding and packing move a token's row with its column, "
                 "whatever ids are given.")
            : tr("By id: the model places each token by its position id, the ids the batch gives it.");
    };
    return s;
}

} // namespace

QList<ParamSpec> rows()
{
    QList<ParamSpec> list = {attentionRow(), positionsRow(), attnScaleRow(), floorScaleRow(), chunkRow(), windowRow()};
    for (ParamSpec &s : list)
        s.ofModel = true; // a model's config sets them: the model's, not the batch's
    return list;
}

} // namespace posenc::BatchModelRows
