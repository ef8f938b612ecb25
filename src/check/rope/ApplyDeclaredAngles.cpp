// --apply's angles checked as a declared RoPE cos table (ApplyDeclaredAngles.h). The reference is
// transformers' modeling_rope_utils.py (_compute_*_parameters: inv_freq, attention_factor) as
// RopeFrequencies computes it, and modeling_llama.py's cos = cat(freqs, freqs).cos() *
// attention_scaling; the naming is the table check's own (TableCheck::streamDeclared).
#include "check/rope/ApplyDeclaredAngles.h"

#include "check/DeclaredReading.h"
#include "check/TableCheck.h"
#include "check/rope/ApplyAngles.h"
#include "check/rope/ApplyIds.h"
#include "check/rope/ApplyReference.h"
#include "core/rope/RopeFrequencies.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc::ApplyDeclaredAngles {

namespace {

// The declared reference as the cos table of Y's turned columns: HF's layout (the angles' table is
// cat over the halves whatever the rotation's pairing), a head as wide as the turned columns, every
// column turned (a partial rotary's rotary_dim r is inv_freq over r, as a head of width r has it).
std::optional<Params> asAnglesTable(const Params &reference, std::int64_t width)
{
    if (RopeFrequencies::rotaryDim(reference.rope) != width)
        return std::nullopt;
    Params table = reference;
    table.rope.layout = RopeLayout::Half;
    if (table.rope.type != RopeType::Proportional) {
        table.rope.headDim = width;
        table.rope.partialRotaryFactor = 1.0;
    }
    if (!table.isValid() || RopeFrequencies::rotaryDim(table.rope) != width)
        return std::nullopt;
    return table;
}

// `first`: the position of the angles' row 0 (a later chunk's, position_ids from F > 0), where the
// declared table starts as `posenc check --position-ids` starts it (RopeTableCheck's expect: a
// LongRoPE's list the one transformers takes for max(position_ids) + 1).
std::optional<Named> nameRows(const ApplyCheck::AnglesRows &angles, const Params &table, int threads, bool readAs,
                              std::int64_t first)
{
    const QString word = u"rope-cos"_s;
    TableCheck::Declared at;
    at.family = Encoding::Rope;
    at.firstPosition = first;
    auto expected = TableCheck::expect(angles, Encoding::Rope, table, word, nullptr, at);
    auto *declared = std::get_if<TableMatch>(&expected);
    if (!declared)
        return std::nullopt;
    TableCheck::DeclaredRows rows;
    rows.candidates.push_back(std::move(*declared));
    // Read undeclared as the identification reads the angles, a RoPE table in HF's layout, where it
    // read frequencies from them: the parameter a cos table of those rows would name (rope-type at
    // rows whose slow pairs the frequencies taken place at no position). Where it read none, the
    // search is not made again; a defect of the reference's computation (its precision, a
    // whole-vector mistake) is named from the declaration alone.
    if (readAs) {
        TableCheck::Declared asRope;
        asRope.family = Encoding::Rope;
        asRope.keys = {u"rope-layout"_s};
        asRope.params.rope.layout = RopeLayout::Half;
        asRope.firstPosition = first;
        auto identified = TableCheck::identify(angles, asRope);
        if (auto *read = std::get_if<TableMatch>(&identified))
            rows.readAs = std::move(*read);
    }
    rows.family = Encoding::Rope;
    rows.params = table;
    rows.referenceGiven = true;
    TableCheck::StreamOptions options;
    options.threads = threads;
    auto streamed = TableCheck::streamDeclared(std::move(rows), angles, options);
    const auto *done = std::get_if<TableCheck::Streamed>(&streamed);
    if (!done || done->match.verdict != CheckVerdict::Mistake || done->match.mistakes.isEmpty())
        return std::nullopt;
    return Named {done->match.mistakes, done->match.diagnosis};
}

} // namespace

std::optional<Named> name(const RowMatrixXf &x, const RowMatrixXf &y, const ApplyPairs::Reading &r, double u,
                          const Params &reference, const std::vector<std::int64_t> &ids, int threads, bool readAs)
{
    const std::optional<Params> table = asAnglesTable(reference, r.geometry.width);
    if (!table)
        return std::nullopt;
    if (ids.empty())
        return nameRows(ApplyCheck::AnglesRows(x, y, r, u), *table, threads, readAs, 0);
    // The rows of positions F, F + 1, ... in that order, F the smallest id: the table the
    // reference's rows are from its position F (0 for a prefill, past 0 for a later chunk).
    const std::int64_t first = *std::min_element(ids.begin(), ids.end());
    std::vector<std::int64_t> fromFirst(ids);
    for (std::int64_t &id : fromFirst)
        id -= first;
    const std::vector<std::vector<std::int64_t>> lists = ApplyCheck::rowsByPosition(fromFirst);
    if (lists.empty() || first < 0)
        return std::nullopt;
    const std::vector<std::int64_t> &rows = lists.front();
    RowMatrixXf xs(std::ssize(rows), x.cols()), ys(std::ssize(rows), y.cols());
    for (std::size_t p = 0; p < rows.size(); ++p) {
        xs.row(std::int64_t(p)) = x.row(rows[p]);
        ys.row(std::int64_t(p)) = y.row(rows[p]);
    }
    return nameRows(ApplyCheck::AnglesRows(xs, ys, r, u), *table, threads, readAs, first);
}

bool nameResult(ApplyCheck::Result &result, const RowMatrixXf &x, const RowMatrixXf &y, const ApplyPairs::Reading &r,
                double u, const ApplyCheck::Declared &declared, QString *line)
{
    const QString &differ = ApplyReference::kFrequencies;
    const bool unnamed = result.mistakes.isEmpty() && result.verdict != CheckVerdict::Correct;
    if (!declared.reference || !(unnamed || result.mistakes.contains(differ)))
        return false;
    // Angles no search read as RoPE frequencies (unknown so far) are not searched again.
    const bool identified = result.params.has_value();
    const std::optional<Named> named
        = name(x, y, r, u, *declared.reference, declared.ids, declared.threads, identified);
    if (!named)
        return false;
    result.mistakes.removeAll(differ);
    for (const QString &mistake : named->mistakes) {
        if (!result.mistakes.contains(mistake))
            result.mistakes.append(mistake);
    }
    const QString words = u"Y's angles, read as a RoPE cos table of its rows at their positions, against the "
                          "reference declared: "_s
        + named->diagnosis;
    if (line) {
        *line = words;
        return true;
    }
    result.verdict = CheckVerdict::Mistake;
    if (!result.diagnosis.isEmpty())
        result.notes.prepend(result.diagnosis);
    result.diagnosis = words;
    return true;
}

bool nameReadRows(ApplyCheck::Result &result, const RowMatrixXf &x, const RowMatrixXf &y, const ApplyPairs::Reading &r,
                  double u, const ApplyCheck::Declared &declared, const std::vector<std::int64_t> &positions)
{
    std::vector<std::int64_t> rows;
    for (std::size_t p = 0; p < positions.size(); ++p) {
        if (positions[p] >= 0)
            rows.push_back(std::int64_t(p));
    }
    if (std::ssize(rows) == x.rows())
        return nameResult(result, x, y, r, u, declared);
    if (rows.size() < 3)
        return false;
    RowMatrixXf xs(std::ssize(rows), x.cols()), ys(std::ssize(rows), y.cols());
    ApplyCheck::Declared read = declared;
    read.ids.clear();
    for (std::size_t k = 0; k < rows.size(); ++k) {
        xs.row(std::int64_t(k)) = x.row(rows[k]);
        ys.row(std::int64_t(k)) = y.row(rows[k]);
        read.ids.push_back(positions[std::size_t(rows[k])]);
    }
    return nameResult(result, xs, ys, r, u, read);
}

void nameHalfRead(ApplyCheck::Result &result, const ApplyCheck::Declared &declared)
{
    if (result.halfAnglesRead.isEmpty() || declared.reference || !declared.ids.empty() || !result.mistakes.isEmpty())
        return;
    const QString words = u"Y's angles, read as a RoPE cos table of its rows at their index: "_s + result.halfAnglesRead;
    result.notes.removeAll(u"the angles as a RoPE cos table: "_s + result.halfAnglesRead);
    result.verdict = CheckVerdict::Mistake;
    result.mistakes.append(CheckMistakes::kHalfPrecisionAngles);
    result.diagnosis = words;
}

} // namespace posenc::ApplyDeclaredAngles
