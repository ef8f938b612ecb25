// The batch's rows (docs/ARCHITECTURE.md, Positions in practice): how the batch is given and the
// ids its tokens get. What a model reads of the absolute position besides its encoding is in
// BatchModelRows.cpp.
#include "BatchParamRows.h"

#include "BatchLayout.h"
#include "BatchModelRows.h"
#include "BatchRowRanges.h"
#include "core/TrContext.h"

using namespace Qt::StringLiterals;

namespace posenc::BatchParamRows {

namespace {

constexpr TrContext tr {"BatchParamRows"};

std::optional<IdleReason> never(const Params &)
{
    return std::nullopt;
}

ParamSpec textRow(const QString &key, QString BatchParams::*field)
{
    ParamSpec s;
    s.key = key;
    s.group = ParamGroup::Batch;
    s.kind = ParamKind::Text;
    // "none" stands for no such batch, so that every row's text says something.
    s.value = [field](const Params &p) { return ParamValue((p.batch.*field).isEmpty() ? u"none"_s : p.batch.*field); };
    s.assign = [field](Params &p, const ParamValue &v) {
        if (const auto *text = std::get_if<QString>(&v))
            p.batch.*field = *text;
    };
    // An empty text is refused, not read as no batch: "none" says that (the text field gives "none"
    // for an empty field), so that --batch "" from a script's empty variable names --batch.
    s.parse = [](const QString &t) -> std::optional<ParamValue> {
        const QString w = t.trimmed();
        if (w.isEmpty())
            return std::nullopt;
        return ParamValue(w == u"none"_s ? QString() : w);
    };
    s.unsetText = u"none"_s;
    s.allowed = [key](const Params &p) { return BatchRowRanges::allowed(key, p); };
    s.check = [key](const Params &p) { return layoutProblem(p, key); };
    s.idle = never;
    return s;
}

ParamSpec lengthsRow()
{
    ParamSpec s = textRow(u"batch"_s, &BatchParams::lengths);
    s.valueName = u"left|right:N,N,..."_s;
    s.help = u"a batch as each row's real tokens padded at one side, left:5,8,3 or right:5,8,3: the rows\n"
             "      are max_len columns (the prefill's with --cache), the padding at that side; without\n"
             "      --max-len the longest row's"_s;
    s.label = u"batch"_s;
    s.helpShowsDefault = false;
    s.formula = [](const Params &) {
        return tr("Each row holds its prompt's tokens padded to the row's length at one side, as a tokenizer's "
                  "padding_side does. transformers gives a real token the row's real tokens before it, "
                  "attention_mask.cumsum(-1) − 1, and the padding 1.");
    };
    return s;
}

ParamSpec packedRow()
{
    ParamSpec s = textRow(u"packed"_s, &BatchParams::packed);
    s.valueName = u"N,N,.../N,..."_s;
    s.help = u"documents packed into rows: each row's documents' lengths, rows apart by '/' (3,4,2/5,4),\n"
             "      each row padded at its end to max_len; without --max-len the longest row's"_s;
    s.label = u"packed"_s;
    s.helpShowsDefault = false;
    s.formula = [](const Params &) {
        return tr("Documents one after the other in a row, as the flattening collator packs them: each document's "
                  "position ids restart at 0, and the varlen attention reads where each document starts from "
                  "them, so that no token attends to another document.");
    };
    return s;
}

ParamSpec fileRow(const QString &key, bool documents)
{
    ParamSpec s = ParamRows::matrixRow(
        key, ParamGroup::Batch, u"FILE"_s,
        documents ? u"each token's document, a [B, L] matrix of integers in a .npy file (a new document where the\n"
                    "      value changes, a negative value padding), as the collator's seq_idx"_s
                  : u"the attention mask, a [B, L] matrix of 0 (padding) and 1 in a .npy file; without --max-len its\n"
                    "      columns set max_len"_s);
    s.label = documents ? u"document ids"_s : u"attention mask"_s;
    s.controlText = documents ? tr("Load document ids…") : tr("Load a mask…");
    s.value = [documents](const Params &p) {
        const auto &table = documents ? p.batch.documents : p.batch.mask;
        return table ? ParamValue(MatrixValue {table, table->source}) : ParamValue(std::monostate {});
    };
    s.allowed = [key](const Params &p) { return BatchRowRanges::allowed(key, p); };
    s.check = [key](const Params &p) { return layoutProblem(p, key); };
    s.formula = [documents](const Params &) {
        return documents ? tr("Each token's document, as the collator's seq_idx: a change of value starts a "
                              "document, whose ids restart at 0; a negative value is padding.")
                         : tr("attention_mask: 1 for a real token, 0 for padding. A real token's id is the real "
                              "tokens before it in its row, the padding's 1.");
    };
    return s;
}

ParamSpec cacheRow()
{
    ParamSpec s = ParamRows::integer(
        u"cache"_s, ParamGroup::Batch, [](Params &p) -> std::int64_t & { return p.batch.cache; },
        [](const Params &p) {
            return std::pair<std::int64_t, std::int64_t> {0, p.maxLen};
        },
        u" (max_len)"_s);
    s.help = u"a prefill of N columns: from column N on each column is one decode step with a KV cache;\n"
             "      0: no cache"_s;
    s.label = u"cache"_s;
    s.controlMax = Params::kMaxLen;
    const auto inRange = s.check;
    s.check = [inRange](const Params &p) -> std::optional<ParamError> {
        if (auto e = inRange(p))
            return e;
        return layoutProblem(p, u"cache"_s);
    };
    s.formula = [](const Params &) {
        return tr("A decode step after a prefill of N columns: cache_position is the column, and the position id "
                  "the row's real tokens before it (the mask grows by a column of ones a step). M-RoPE's is "
                  "cache_position + rope_deltas.");
    };
    return s;
}

ParamSpec choiceRow()
{
    ParamSpec s
        = ParamRows::choice(u"ids-choice"_s, ParamGroup::Batch, &Params::batch, &BatchParams::ids, choiceWords());
    // One word for the value: the six choices would make a line no page can hold (the man page's tag).
    s.valueName = u"CHOICE"_s;
    s.help = u"the ids the tokens get: reference, the reference's, or a mistake to compare with it:\n"
             "      arange-with-padding, positions-not-restarted, restarted-without-block-mask,\n"
             "      cache-offset or off-by-one"_s;
    s.label = u"ids_choice"_s;
    s.formula = [](const Params &) {
        return tr("reference: transformers' (generation, the flattening collator, get_rope_index)<br>"
                  "arange-with-padding: arange(L) in every row<br>"
                  "positions-not-restarted: a packed row's ids run on across its documents<br>"
                  "restarted-without-block-mask: restarted ids, but a 2-D mask: the attention crosses documents<br>"
                  "cache-offset: the decode steps' ids without the cache's offset (M-RoPE: rope_deltas lost)<br>"
                  "off-by-one: every real token's id one too many");
    };
    return s;
}

} // namespace

const QStringList &choiceWords()
{
    static const QStringList words
        = {u"reference"_s,    u"arange-with-padding"_s, u"positions-not-restarted"_s, u"restarted-without-block-mask"_s,
           u"cache-offset"_s, u"off-by-one"_s};
    return words;
}

std::optional<ParamError> layoutProblem(const Params &params, const QString &key)
{
    return BatchRowRanges::problem(params, key);
}

QList<ParamSpec> rows()
{
    QList<ParamSpec> all
        = {lengthsRow(), packedRow(), fileRow(u"attention-mask"_s, false), fileRow(u"document-ids"_s, true),
           cacheRow(),   choiceRow()};
    all += BatchModelRows::rows();
    return all;
}

} // namespace posenc::BatchParamRows
