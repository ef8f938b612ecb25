#include "PositionsLessonNumbers.h"

#include "BatchIds.h"
#include "DocumentDistance.h"
#include "PositionEffect.h"
#include "ScoreFromColumns.h"

#include "core/Engine.h"
#include "core/FamilySpec.h"
#include "core/NumberText.h"

#include <QStringList>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc::PositionsLessonNumbers {

using namespace LessonNumbers;

namespace {

using Column = PositionEffect::Column;

// The row a lesson about padding reads: the first whose first column is padding, else 0; and its
// last real column.
struct PaddedToken
{
    std::int64_t row = 0, column = -1, padding = 0;
};

PaddedToken paddedToken(const BatchLayout &layout)
{
    PaddedToken t;
    for (std::int64_t b = 0; b < layout.rows(); ++b) {
        if (!layout.row(b).front().isReal()) {
            t.row = b;
            break;
        }
    }
    for (const BatchSegment &s : layout.row(t.row)) {
        if (!s.isReal() && s.start == 0)
            t.padding = s.length;
        if (s.isReal())
            t.column = s.end() - 1;
    }
    return t;
}

// The effect columns of the padded row's last real token, under `choice`.
std::optional<std::vector<double>> tokenEffect(const Params &params, IdsChoice choice, std::int64_t *column = nullptr)
{
    Params p = params;
    p.batch.ids = choice;
    if (!p.isValid())
        return std::nullopt;
    const Engine engine(p);
    const PositionEffect &effect = engine.source<PositionEffect>();
    if (effect.ids().problem())
        return std::nullopt;
    const PaddedToken t = paddedToken(effect.ids().layout());
    if (t.column < 0)
        return std::nullopt;
    std::vector<double> v(PositionEffect::Columns);
    effect.values(t.row, t.column, 1, v.data());
    if (column)
        *column = t.column;
    return v;
}

const QString kInvalid = u"not here: the parameters or the batch are not valid"_s;

// The figures that draw these numbers, with words of the panel's title (LessonNumbers::Entry::figure):
// a slide that quotes one draws that panel.
const QString kEffectScores = u"position-effect: document's first"_s;
const QString kEffectDifference = u"position-effect: the difference"_s;
const QString kEffectAbsolute = u"position-effect: what reads the absolute position"_s;
const QString kDistanceFigure = u"document-distance"_s;

Number effect(const Params &params, IdsChoice choice, Column k)
{
    const auto v = tokenEffect(params, choice);
    return v ? real((*v)[std::size_t(k)]) : none(kInvalid);
}

Number effectInteger(const Params &params, IdsChoice choice, Column k)
{
    const auto v = tokenEffect(params, choice);
    return v ? integer(std::int64_t((*v)[std::size_t(k)])) : none(kInvalid);
}

// The parameters with the model's term added by id (Positions::ById): what a decoder's generation
// would give a model that adds its term by column and reads no ids (WhisperEncoder.forward).
Params byId(const Params &params)
{
    Params p = params;
    p.batch.positions = Positions::ById;
    return p;
}

Number withLayout(const Params &params, const std::function<Number(const BatchLayout &)> &f)
{
    return params.isValid() ? f(BatchLayout(params)) : none(kInvalid);
}

Number maxLength(const Params &params, IdsChoice choice)
{
    if (!params.isValid())
        return none(kInvalid);
    const Engine engine(params);
    // The ids exist only where the batch lays them out (M-RoPE's get_rope_index: one prompt a row).
    const BatchIds &ids = engine.source<BatchIds>();
    if (ids.problem())
        return none(u"not here: %1"_s.arg(*ids.problem()));
    return integer(ids.maxId(choice) + 1);
}

// A decode step's id: the padded row's first column from the cache on.
// The padded row's first decode step's id under `choice`, as BatchIds gives it: M-RoPE's is
// cache_position + rope_deltas (get_rope_index's), not the row's real tokens so far.
Number decodeId(const Params &params, IdsChoice choice)
{
    if (params.batch.cache <= 0 || params.batch.cache >= params.maxLen)
        return none(u"not here: no decode step (cache 0)"_s);
    if (!params.isValid())
        return none(kInvalid);
    const Engine engine(params);
    const BatchIds &ids = engine.source<BatchIds>();
    if (ids.problem())
        return none(*ids.problem());
    return integer(ids.id(choice, paddedToken(ids.layout()).row, params.batch.cache));
}

// A condition on how the model's score reads two ids (PositionEffect::ScoreKind): turned by their
// difference (RoPE, M-RoPE).
Number scoreKind(const Params &params, PositionEffect::ScoreKind kind, const QString &whyNot)
{
    if (!params.isValid())
        return none(kInvalid);
    const Engine engine(params);
    return condition(engine.source<PositionEffect>().scoreKind() == kind, whyNot);
}

// Where a family's score bias comes from (ScoreFromColumns: MPT's and BLOOM's ALiBi, T5, DeBERTa
// build it from the columns or the mask); unchecked: a family whose models' code this program has
// not read (Sandwich's NeMo, KERPLE).
enum class BiasFrom { NoBias, Columns, Unchecked };

// A model whose code is not transformers' (its config's auto_map, ModelSchemes.json's "remote: ..."
// file: Baichuan 13B's _gen_alibi_mask) builds its bias by code this program has not read.
BiasFrom biasFrom(Encoding encoding, const QString &source)
{
    if (Families::spec(encoding).kind != FamilyKind::ScoreBias)
        return BiasFrom::NoBias;
    if (source.startsWith(u"remote"_s))
        return BiasFrom::Unchecked;
    return ScoreFromColumns::builds(encoding) ? BiasFrom::Columns : BiasFrom::Unchecked;
}

Number needs(bool set, const QString &what, const std::function<Number()> &f)
{
    return set ? f() : none(u"not here: %1 is unset"_s.arg(what));
}

QList<Entry> paddingEntries()
{
    constexpr auto arange = IdsChoice::ArangeWithPadding;
    constexpr auto reference = IdsChoice::Reference;
    return {
        {u"batch_rows"_s, u"the batch's rows"_s,
         [](const Params &p) { return withLayout(p, [](const BatchLayout &l) { return integer(l.rows()); }); }},
        {u"batch_padding"_s, u"the padding before the padded row's first real token"_s,
         [](const Params &p) {
             return withLayout(p, [](const BatchLayout &l) { return integer(paddedToken(l).padding); });
         }},
        {u"batch_last_column"_s, u"the padded row's last real column"_s,
         [](const Params &p) {
             return withLayout(p, [](const BatchLayout &l) { return integer(paddedToken(l).column); });
         }},
        {u"batch_last_id"_s, u"its position id, the reference's (its column where the model adds by column)"_s,
         [](const Params &p) { return effectInteger(p, reference, Column::ReferenceId); }},
        // A model that adds its term by column reads no ids; what its text compares them with is
        // the id the reference gives by id, a decoder's generation's attention_mask.cumsum(-1) - 1.
        {u"batch_generation_id"_s,
         u"the id the reference gives that token by id, a decoder's generation's, whatever the model reads"_s,
         [](const Params &p) { return effectInteger(byId(p), reference, Column::ReferenceId); }},
        // The same token's id under arange(L): its column for a model of one id, and for M-RoPE
        // get_rope_index without the mask, which counts the padding before it as text (BatchIds),
        // so an image's tokens keep their fewer ids and the last token falls short of its column.
        {u"batch_last_arange_id"_s, u"its position id under arange(L), the padding counted"_s,
         [](const Params &p) { return effectInteger(p, arange, Column::ChosenId); }},
        {u"one_id_positions"_s, u"a condition: the model places each token by one position id"_s,
         [](const Params &p) {
             return condition(
                 PositionEffect::reads(Families::spec(p.encoding)),
                 u"%1 places a patch by its row and column, not by one id"_s.arg(Families::spec(p.encoding).heading));
         }},
        // masked-dropout gave MAE a [SEP], a [MASK] and padding rows: an image model's tokens are
        // patches, placed by their row and column.
        {u"patch_positions"_s, u"a condition: the model's tokens are image patches, placed by row and column"_s,
         [](const Params &p) {
             return condition(!PositionEffect::reads(Families::spec(p.encoding)),
                              u"%1 places each token by one id"_s.arg(Families::spec(p.encoding).heading));
         }},
        {u"batch_rotary"_s, u"a condition: the score turns a query and a key by their ids' difference"_s,
         [](const Params &p) {
             return scoreKind(p, PositionEffect::ScoreKind::Rotary, u"the model turns no query by its id"_s);
         }},
        {u"batch_biased"_s, u"a condition: the model biases its scores by the difference of two ids"_s,
         [](const Params &p) {
             return condition(Families::spec(p.encoding).kind == FamilyKind::ScoreBias,
                              u"the model biases no score by a distance"_s);
         }},
        {u"bias_from_columns"_s,
         u"a condition: the model's code builds its score bias from the columns or the mask, not from ids"_s,
         std::function<Number(const LessonModel &)>([](const LessonModel &m) {
             return condition(biasFrom(m.params.encoding, m.source) == BiasFrom::Columns,
                              u"the model's code builds no score bias from the columns alone"_s);
         })},
        // bias_code and bias_flash, each model's own words, are the model table's
        // (check/models/BiasCodeLessonNumbers).
        {u"bias_unchecked"_s, u"a condition: the model biases its scores by code this program has not read"_s,
         std::function<Number(const LessonModel &)>([](const LessonModel &m) {
             return condition(biasFrom(m.params.encoding, m.source) == BiasFrom::Unchecked,
                              u"the model's bias is none, or its code has been read"_s);
         })},
        {u"batch_score_name"_s, u"what the score of a family that biases it is: \"T5 bucket\", \"ALiBi bias\""_s,
         [](const Params &p) {
             const FamilySpec &family = Families::spec(p.encoding);
             return family.score ? word(family.score->name) : none(u"not here: the family has no score of two ids"_s);
         }},
        {u"batch_score_reference"_s, u"its score against the row's first real token, the reference's ids"_s,
         [](const Params &p) { return effect(p, reference, Column::ScoreReference); }, kEffectScores},
        {u"batch_score_arange"_s, u"the same under arange(L)"_s,
         [](const Params &p) { return effect(p, arange, Column::ScoreChosen); }, kEffectScores},
        {u"batch_score_difference"_s, u"arange's score minus the reference's"_s,
         [](const Params &p) { return effect(p, arange, Column::ScoreDifference); }, kEffectDifference},
        {u"batch_float32_difference"_s, u"the same with float32 angles"_s,
         [](const Params &p) { return effect(p, arange, Column::Float32Difference); }, kEffectDifference},
        {u"batch_term_difference"_s, u"‖PE[column] − PE[id]‖ of a family that adds a term"_s,
         [](const Params &p) { return effect(p, arange, Column::TermDifference); }, kEffectAbsolute},
        {u"batch_generation_term_difference"_s,
         u"‖PE[column] − PE[batch_generation_id]‖ of a family that adds a term, whatever the model reads"_s,
         [](const Params &p) { return effect(byId(p), arange, Column::TermDifference); }},
        {u"batch_temperature_id"_s, u"Llama 4's temperature at the token's id"_s,
         [](const Params &p) {
             return needs(bool(p.batch.attnScale), u"attn-scale"_s,
                          [&] { return effect(p, reference, Column::TemperatureIds); });
         },
         kEffectAbsolute},
        {u"batch_temperature_column"_s, u"... at its column, cache_position, as Llama4TextAttention reads it"_s,
         [](const Params &p) {
             return needs(bool(p.batch.attnScale), u"attn-scale"_s,
                          [&] { return effect(p, reference, Column::TemperatureCache); });
         },
         kEffectAbsolute},
        {u"batch_chunk_id"_s, u"Llama 4's chunk of the token's id"_s,
         [](const Params &p) {
             return needs(bool(p.batch.chunk), u"attention-chunk"_s,
                          [&] { return effectInteger(p, reference, Column::ChunkIds); });
         },
         kEffectAbsolute},
        {u"batch_chunk_arange"_s, u"... of its column, arange's id"_s,
         [](const Params &p) {
             return needs(bool(p.batch.chunk), u"attention-chunk"_s,
                          [&] { return effectInteger(p, arange, Column::ChunkIds); });
         },
         kEffectAbsolute},
        {u"batch_length_reference"_s, u"the batch's length a dynamic rotary embedding reads: the largest id + 1"_s,
         [](const Params &p) { return maxLength(p, reference); }},
        {u"batch_length_arange"_s, u"... under arange(L)"_s, [](const Params &p) { return maxLength(p, arange); }},
        {u"batch_cache"_s, u"the prefill's columns, the cache's length at the first decode step"_s,
         [](const Params &p) { return integer(p.batch.cache); }},
        {u"batch_prompt"_s, u"the padded row's real tokens in the prefill (all of them without a cache)"_s,
         [](const Params &p) {
             return withLayout(p, [](const BatchLayout &l) {
                 std::int64_t prompt = 0;
                 for (const BatchSegment &s : l.row(paddedToken(l).row))
                     prompt += s.isReal() && !s.decode ? s.length : 0;
                 return integer(prompt);
             });
         }},
        {u"batch_decode_steps"_s, u"the decode steps after the prefill: L − cache, one column each"_s,
         [](const Params &p) {
             return p.batch.cache > 0 && p.batch.cache < p.maxLen ? integer(p.maxLen - p.batch.cache)
                                                                  : none(u"not here: no decode step (cache 0)"_s);
         }},
        {u"batch_decode_id"_s, u"the padded row's first decode step's id"_s,
         [](const Params &p) { return decodeId(p, reference); }},
        {u"batch_decode_lost_id"_s, u"... with the cache's offset lost"_s,
         [](const Params &p) { return decodeId(p, IdsChoice::CacheOffset); }},
    };
}

// Row 0's layout as the model attends it: both ways where the model or its family says so.
Number withModelLayout(const LessonModel &model, const std::function<Number(const BatchLayout &)> &f)
{
    return model.params.isValid() ? f(BatchLayout(model.params)) : none(kInvalid);
}

// The counts of row 0's pairs across documents under `choice`.
Number crossCount(const LessonModel &model, IdsChoice choice, bool negative)
{
    return withModelLayout(model, [&](const BatchLayout &layout) {
        const DocumentDistance::Counts n = DocumentDistance::row(layout, choice, 0);
        return count(double(negative ? n.crossNegative : n.cross));
    });
}

// The largest distance of a cross-document pair of row 0 under `choice`.
Number crossFarthest(const LessonModel &model, IdsChoice choice)
{
    return withModelLayout(model, [&](const BatchLayout &layout) {
        std::int64_t most = 0;
        const auto segments = layout.row(0);
        for (const BatchSegment &q : segments) {
            for (const BatchSegment &k : segments) {
                if (!q.isReal() || !k.isReal() || q.document == k.document)
                    continue;
                const auto n = DocumentDistance::rectangle(layout, choice, 0, q.start, q.end(), k.start, k.end());
                if (n.attended > 0)
                    most = std::max(most, n.most);
            }
        }
        return integer(most);
    });
}

QList<Entry> packingEntries()
{
    constexpr auto restarted = IdsChoice::RestartedWithoutBlockMask;
    constexpr auto continued = IdsChoice::PositionsNotRestarted;
    return {
        {u"pack_documents"_s, u"row 0's documents"_s,
         [](const Params &p) {
             return withLayout(p, [](const BatchLayout &l) {
                 std::int64_t n = 0;
                 for (const BatchSegment &s : l.row(0))
                     n += s.isReal() ? 1 : 0;
                 return integer(n);
             });
         }},
        {u"pack_starts"_s, u"where the varlen attention starts each document: cu_seqlens"_s,
         [](const Params &p) {
             return withLayout(p, [](const BatchLayout &l) {
                 QStringList starts;
                 std::int64_t end = 0;
                 for (const BatchSegment &s : l.row(0)) {
                     if (s.isReal()) {
                         starts.append(QString::number(s.start));
                         end = s.end();
                     }
                 }
                 starts.append(QString::number(end));
                 return LessonNumbers::word(starts.join(u", "_s));
             });
         }},
        // Whether its queries see the keys after them is the model's (an encoder) or its family's to
        // say (LessonNumbers::attendsBothWays), and the counts below count the pairs it attends so.
        {u"attends_both_ways"_s, u"a condition: the model attends both ways (an encoder, or its family's mask)"_s,
         [](const LessonModel &m) {
             return condition(LessonNumbers::attendsBothWays(m),
                              u"its attention is causal, or posenc does not know it is not"_s);
         }},
        // A model whose code adds row c of its table to column c reads no ids at all
        // (params.batch.positions: WhisperEncoder.forward), so restarts and padding move its rows only
        // with the columns.
        {u"by_column"_s, u"a condition: the model adds its position term by column and reads no position ids"_s,
         [](const LessonModel &m) {
             return condition(m.params.batch.positions == Positions::ByColumn,
                              u"the model places its tokens by their position ids"_s);
         }},
        // An encoder-decoder's parameters describe one of its stacks, the one its attention names
        // (LessonModel::encoderDecoder): the encoder attends both ways, the decoder causally.
        {u"encoder_decoder"_s, u"a condition: the model has an encoder and a decoder"_s,
         [](const LessonModel &m) { return condition(m.encoderDecoder, u"the model is one stack"_s); }},
        {u"stack"_s, u"which of an encoder-decoder's stacks the parameters describe: \"encoder\" or \"decoder\""_s,
         [](const LessonModel &m) {
             if (!m.encoderDecoder)
                 return none(u"not here: the model is one stack"_s);
             return word(LessonNumbers::attendsBothWays(m) ? u"encoder"_s : u"decoder"_s);
         }},
        {u"other_stack"_s, u"... and the other one"_s,
         [](const LessonModel &m) {
             if (!m.encoderDecoder)
                 return none(u"not here: the model is one stack"_s);
             return word(LessonNumbers::attendsBothWays(m) ? u"decoder"_s : u"encoder"_s);
         }},
        {u"pack_cross_reference"_s, u"cross-document pairs the reference's block mask lets through"_s,
         [](const LessonModel &m) { return crossCount(m, IdsChoice::Reference, false); }, kDistanceFigure},
        {u"pack_cross_continued"_s, u"cross-document pairs attended with positions that run on"_s,
         [](const LessonModel &m) { return crossCount(m, continued, false); }, kDistanceFigure},
        {u"pack_far_continued"_s, u"the farthest such pair's distance"_s,
         [](const LessonModel &m) { return crossFarthest(m, continued); }, kDistanceFigure},
        {u"pack_cross_restarted"_s, u"cross-document pairs with restarted ids and no block mask"_s,
         [](const LessonModel &m) { return crossCount(m, restarted, false); }, kDistanceFigure},
        {u"pack_negative_restarted"_s, u"... of a negative distance"_s,
         [](const LessonModel &m) { return crossCount(m, restarted, true); }, kDistanceFigure},
        {u"pack_negative_share"_s, u"their share, in per cent"_s,
         [](const LessonModel &m) {
             return withModelLayout(m, [&](const BatchLayout &layout) {
                 const auto n = DocumentDistance::row(layout, restarted, 0);
                 return n.cross > 0 ? real(100.0 * double(n.crossNegative) / double(n.cross))
                                    : none(u"not here: no cross-document pair"_s);
             });
         },
         kDistanceFigure},
    };
}

// The model's sliding window (BatchParams::window), which masks the keys W or more before a causal
// query, masking_utils' sliding_window_overlay (kv_idx > q_idx - sliding_window); a model that
// attends both ways draws none (FamiliesModel::compute).
QList<Entry> windowEntries()
{
    const auto windowOf = [](const Params &p) -> std::optional<std::int64_t> {
        return BatchLayout::attendsBothWays(p) ? std::nullopt : p.batch.window;
    };
    return {
        {u"sliding_window"_s, u"the model's sliding window W: a causal query sees the keys fewer than W before it"_s,
         [windowOf](const Params &p) {
             const auto w = windowOf(p);
             return w ? integer(*w) : none(u"not here: the model attends without a sliding window"_s);
         }},
        {u"window_masks_here"_s,
         u"a condition: the families figure's query q is at least W, so its window masks keys before it"_s,
         [windowOf](const Params &p) {
             const auto w = windowOf(p);
             return condition(w && *w <= familiesDefaultQuery(p),
                              u"the window reaches past key 0 from the figure's query"_s);
         }},
        // The padded row's first real token as a key of its last: the window counts columns
        // (cache positions), and no layer with the window scores that pair.
        {u"batch_first_key_masked"_s,
         u"a condition: the padded row's last real token is W or more columns after its first, so the window "
         "masks that key"_s,
         [windowOf](const Params &p) {
             const auto w = windowOf(p);
             if (!w || !p.isValid())
                 return condition(false, u"the model attends without a sliding window"_s);
             const PaddedToken t = paddedToken(BatchLayout(p));
             return condition(t.column - t.padding >= *w, u"the row's first real token is within the window"_s);
         }},
    };
}

} // namespace

QList<Entry> entries()
{
    return paddingEntries() + packingEntries() + windowEntries();
}

} // namespace posenc::PositionsLessonNumbers
