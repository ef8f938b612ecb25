// TableCheck's identifying half: the sample read, every family's hypothesis asked (its FamilySpec's
// TableHypothesis: no family named here), the best answer kept (docs/ARCHITECTURE.md, Checking a table).
#include "TableCheck.h"

#include "check/ChangedRegion.h"
#include "check/CheckDiagnosis.h"
#include "check/DeclaredReading.h"
#include "check/FamilyCheck.h"
#include "check/MaskFill.h"
#include "check/MaskRegion.h"
#include "check/PositionWindows.h"
#include "check/RowConstant.h"
#include "check/SampleScore.h"
#include "check/TableRounding.h"
#include "check/TableSample.h"
#include "check/VerdictNames.h"
#include "core/FamilySpec.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

using namespace Qt::StringLiterals;

namespace posenc::TableCheck {

namespace {

// Rows of zeros among the first rows: leading ones start the comparison after them, later ones
// are padding rows (fairseq's padding_idx) left out of it.
RowFraming frameRows(const TableSample &sample)
{
    RowFraming framing;
    const std::int64_t leading = std::min<std::int64_t>(sample.leadingRows, 8);
    const auto zero = [&](std::int64_t i) { return sample.values.row(i).cwiseAbs().maxCoeff() == 0.0f; };
    while (framing.firstRow < leading && zero(framing.firstRow))
        ++framing.firstRow;
    for (std::int64_t r = framing.firstRow; r < leading; ++r) {
        if (zero(r))
            framing.paddingRows.push_back(r);
    }
    return framing;
}

// The sample's indices of the rows a reference would compare.
std::vector<std::int64_t> comparedIndices(const TableSample &sample, const RowFraming &framing)
{
    std::vector<std::int64_t> compared;
    for (std::int64_t i = 0; i < sample.size(); ++i) {
        const std::int64_t row = sample.rows[std::size_t(i)];
        if (row >= framing.firstRow && !std::binary_search(framing.paddingRows.begin(), framing.paddingRows.end(), row))
            compared.push_back(i);
    }
    return compared;
}

// Whether every compared row holds the same values (at least two of them).
bool sameRows(const TableSample &sample, const std::vector<std::int64_t> &compared, double textRounding)
{
    if (compared.size() < 2)
        return false;
    const double scale = sample.values.cwiseAbs().maxCoeff();
    if (!std::isfinite(scale))
        return false;
    for (std::size_t k = 1; k < compared.size(); ++k) {
        if ((sample.values.row(compared[k]) - sample.values.row(compared[0])).cwiseAbs().maxCoeff()
            > 1e-6 * scale + 2.0 * textRounding)
            return false;
    }
    return true;
}

// The format the values were rounded to: float16-rounded values stored as float32 are float16's,
// a mask's fills left out (MaskFill::valuesFormat).
ValueFormat valuesFormat(const TableRows &table, const TableSample &sample)
{
    ValueFormat format = storedFormat(table.storedType());
    if (format == ValueFormat::Float32 && table.storedType() != StoredType::Integer)
        format = MaskFill::valuesFormat(sample.values.data(), sample.values.size());
    return format;
}

// Whether the user named the candidate's family: by name, or by declaring one of its parameters.
bool isDeclared(const TableCandidate &c, const Declared &declared)
{
    if (!c.match.family)
        return false;
    if (declared.family)
        return *declared.family == *c.match.family;
    const FamilySpec &spec = Families::spec(*c.match.family);
    return FamilyChecks::of(spec.encoding).table
        && std::any_of(FamilyChecks::of(spec.encoding).table->declares.cbegin(),
                       FamilyChecks::of(spec.encoding).table->declares.cend(),
                       [&](const QString &key) { return declared.declares(key); });
}

bool sameSupport(const TableCandidate &a, const TableCandidate &b)
{
    return a.match.reference && b.match.reference
        && double(a.bad) * double(b.compared) == double(b.bad) * double(a.compared);
}

// Whether the claim needs float32 angles' looser tolerance, which grows with the position.
bool needsFloat32Angles(const TableCandidate &c)
{
    return c.match.precision == TablePrecision::Float32Angles;
}

// Whether a claim's reading says the table is a valid one (correct, or a variant), where another
// as well supported cannot tell (unknown: M-RoPE's, whose ids read from the table itself fit any
// grid's rows and cannot be told from get_rope_index's without a prompt). A mistake is no such
// reading: the other may be a faithful computation of it.
bool validOverUnknown(const TableCandidate &c, const TableCandidate &other)
{
    const CheckVerdict v = c.match.verdict;
    return (v == CheckVerdict::Correct || v == CheckVerdict::Variant) && other.match.verdict == CheckVerdict::Unknown;
}

// Of two readings as well supported, whether `c` goes first: a valid table's before one that cannot tell
// (validOverUnknown); exact angles before float32 ones; then the one needing fewer mistakes (a RoPE cos
// table from bfloat16 positions, not a sinusoid whose sines were replaced as well).
bool before(const TableCandidate &c, const TableCandidate &best)
{
    if (validOverUnknown(c, best) || validOverUnknown(best, c))
        return validOverUnknown(c, best);
    if (needsFloat32Angles(best) != needsFloat32Angles(c))
        return !needsFloat32Angles(c);
    return c.match.mistakes.size() < best.match.mistakes.size();
}

// The claim with the most support: a declared family's before the others, a reference before a
// structure alone, then the fewest cells beyond the tolerance per compared cell, then exact angles
// before float32 ones (a tolerance that grows with the position explains more), then the fewest
// mistakes named, then the list's order.
const TableCandidate *bestClaim(const std::vector<TableCandidate> &candidates, const Declared &declared)
{
    const bool anyDeclared = std::any_of(candidates.cbegin(), candidates.cend(),
                                         [&](const TableCandidate &c) { return c.claims && isDeclared(c, declared); });
    const TableCandidate *best = nullptr;
    for (const TableCandidate &c : candidates) {
        if (!c.claims || (anyDeclared && !isDeclared(c, declared)))
            continue;
        if (!best) {
            best = &c;
            continue;
        }
        const bool referenced = bool(c.match.reference), bestReferenced = bool(best->match.reference);
        if (referenced != bestReferenced) {
            if (referenced)
                best = &c;
            continue;
        }
        if (referenced && double(c.bad) * double(best->compared) < double(best->bad) * double(c.compared))
            best = &c;
        else if (referenced && sameSupport(c, *best) && before(c, *best))
            best = &c;
    }
    return best;
}

// Another claim as well supported whose verdict differs (a RoPE sin table, or a sinusoid whose
// cosines were replaced by sines): the check cannot tell which was meant, unless it was declared. A
// reading that cannot tell (unknown) is no rival to a valid table's (validOverUnknown).
const TableCandidate *rivalClaim(const std::vector<TableCandidate> &candidates, const TableCandidate &best,
                                 const Declared &declared)
{
    if (isDeclared(best, declared))
        return nullptr;
    for (const TableCandidate &c : candidates) {
        if (&c != &best && c.claims && sameSupport(c, best) && c.match.verdict != best.match.verdict
            && !validOverUnknown(best, c))
            return &c;
    }
    return nullptr;
}

// The nearest reference of a family that did not claim the table, when it explains all but
// `share` of the table's energy: a note for a learned or unknown table.
QString nearestNote(const std::vector<TableCandidate> &candidates, double share = 0.1)
{
    const TableCandidate *nearest = nullptr;
    for (const TableCandidate &c : candidates) {
        if (!c.claims && !c.nearest.isEmpty() && c.residual < share && (!nearest || c.residual < nearest->residual))
            nearest = &c;
    }
    return nearest ? nearest->nearest : QString();
}

TableMatch unknownMatch(const std::vector<TableCandidate> &candidates)
{
    TableMatch unknown;
    unknown.verdict = CheckVerdict::Unknown;
    QStringList reasons;
    for (const TableCandidate &c : candidates) {
        if (!c.unclaimed.isEmpty())
            reasons.append(c.unclaimed);
    }
    unknown.diagnosis = CheckDiagnosis::unknown(tableWords(), reasons);
    unknown.unreferenced = CheckDiagnosis::noReference();
    if (const QString near = nearestNote(candidates); !near.isEmpty())
        unknown.notes.append(near);
    return unknown;
}

std::vector<TableCandidate> askFamilies(const TableEvidence &evidence)
{
    std::vector<TableCandidate> candidates;
    for (const FamilySpec &family : Families::all()) {
        if (!FamilyChecks::of(family.encoding).table || ScoringCancel::requested()) // Ctrl+C: no family begins
            continue;
        if (auto candidate = FamilyChecks::of(family.encoding).table->fit(evidence)) {
            candidate->match.family = family.encoding;
            if (candidate->partial)
                candidate->partial->family = family.encoding;
            candidates.push_back(std::move(*candidate));
        }
    }
    return candidates;
}

// A verdict is a promise: correct only against a named reference; a family's formula at parameters
// no published form uses is a variant of it.
void keepPromise(TableMatch &match)
{
    if (match.verdict != CheckVerdict::Correct || !match.correctAgainst.isEmpty())
        return;
    match.verdict = CheckVerdict::Variant;
    match.notes.prepend(CheckDiagnosis::noPublishedForm());
}

// A table no family claims whose sample a family's reference equals in most cells: what the other
// cells hold (ChangedRegion). Of the references that read so, a declared family's first, then one whose
// other cells are named (a mistake) over one whose are not, then the one that equals the largest share.
std::optional<TableMatch> changedRegion(const std::vector<TableCandidate> &candidates, const TableSample &sample,
                                        const Declared &declared)
{
    // The readings left for now (TableCandidate::partialLater) are made here, each in its family's
    // place among the others, so that equal shares keep the families' order (a stable sort).
    std::vector<TableCandidate> later;
    later.reserve(candidates.size()); // the pointers below stay valid
    std::vector<const TableCandidate *> partials;
    const auto consider = [&](const TableCandidate &c) {
        if (c.partial && c.partial->family && (!declared.family || declared.family == c.partial->family))
            partials.push_back(&c);
    };
    for (const TableCandidate &c : candidates) {
        consider(c);
        if (!c.partialLater || (declared.family && declared.family != c.match.family))
            continue;
        if (std::optional<TableCandidate> read = c.partialLater(); read && read->partial) {
            read->partial->family = c.match.family;
            later.push_back(std::move(*read));
            consider(later.back());
        }
    }
    std::stable_sort(partials.begin(), partials.end(), [](const TableCandidate *a, const TableCandidate *b) {
        return double(a->bad) * double(b->compared) < double(b->bad) * double(a->compared);
    });
    std::optional<TableMatch> found;
    for (const TableCandidate *c : partials) {
        std::optional<TableMatch> m = ChangedRegion::read(*c->partial, sample);
        if (!m)
            continue;
        if (m->verdict != CheckVerdict::Unknown) {
            found = std::move(m);
            break;
        }
        if (!found)
            found = std::move(m);
    }
    if (found)
        keepPromise(*found);
    return found;
}

QString readingOf(const TableMatch &r)
{
    return u"%1, %2: %3"_s.arg(r.table, CheckWords::verdictWithNames(r.verdict, r.mistakes), r.diagnosis);
}

// Two readings as well supported, with different verdicts. Where one equals a published form (a
// RoPE sin table at theta 10000, the default rope_type of Llama 1 and 2, is also a sinusoid whose
// cosines were replaced), that one is the verdict and the other a note; else unknown, both named.
TableMatch ambiguousMatch(const TableCandidate &a, const TableCandidate &b)
{
    const bool aPublished = a.match.verdict == CheckVerdict::Correct && !a.match.correctAgainst.isEmpty();
    const bool bPublished = b.match.verdict == CheckVerdict::Correct && !b.match.correctAgainst.isEmpty();
    if (aPublished != bPublished) {
        TableMatch m = aPublished ? a.match : b.match;
        m.notes.append(CheckDiagnosis::otherReading(readingOf(aPublished ? b.match : a.match)));
        return m;
    }
    TableMatch m;
    m.verdict = CheckVerdict::Unknown;
    m.unreferenced = CheckDiagnosis::noReference();
    m.diagnosis = CheckDiagnosis::ambiguous(a.match.table, b.match.table);
    m.notes = {u"reading 1: "_s + readingOf(a.match), u"reading 2: "_s + readingOf(b.match)};
    return m;
}

std::variant<TableMatch, QString> identifyTable(const TableRows &table, const Declared &declared, bool transpose);
constexpr std::int64_t kTransposedRows = 4096;
constexpr std::int64_t kTransposedPositions = 2048;

bool mayBeTransposed(std::int64_t rows, std::int64_t cols)
{
    return rows >= 2 && rows <= kTransposedRows && cols >= 3 && cols > rows;
}

// A d x L table given as L x d: its first columns, read down every row, are the first positions
// of a table some family claims. Tried where no formula explains the table as it is; the table is
// read a row at a time (up to kTransposedRows rows), its first kTransposedPositions columns kept.
std::optional<TableMatch> transposedMatch(const TableRows &table, const Declared &declared)
{
    const std::int64_t rows = table.rows(), cols = table.cols();
    if (!mayBeTransposed(rows, cols))
        return std::nullopt;
    const std::int64_t positions = std::min(cols, kTransposedPositions);
    auto flipped = std::make_shared<RowMatrixXf>(positions, rows);
    std::vector<float> row(static_cast<std::size_t>(cols));
    QString error;
    for (std::int64_t r = 0; r < rows; ++r) {
        if (!table.read(r, 1, row.data(), error))
            return std::nullopt;
        for (std::int64_t p = 0; p < positions; ++p)
            (*flipped)(p, r) = row[std::size_t(p)];
    }
    const MatrixRows transposed(std::move(flipped), table.storedType(), table.name(), table.textRounding());
    auto identified = identifyTable(transposed, declared, false);
    auto *found = std::get_if<TableMatch>(&identified);
    if (!found || !found->reference || found->verdict == CheckVerdict::Unknown)
        return std::nullopt;
    TableMatch m = std::move(*found);
    m.mistakes.prepend(CheckMistakes::kTransposed);
    m.verdict = CheckVerdict::Mistake;
    m.diagnosis = CheckDiagnosis::transposed(rows, cols, m.table, m.diagnosis);
    m.deviations = CheckDiagnosis::transposedCells(rows, cols);
    m.reference.reset();
    m.correctAgainst.clear();
    m.unreferenced = CheckDiagnosis::transposedUnreferenced();
    return m;
}

std::variant<TableMatch, QString> identifyTable(const TableRows &table, const Declared &declared, bool transpose)
{
    if (table.cols() <= 0)
        return u"the table has no columns; a table of positions is L x d with d >= 1"_s;
    if (table.rows() <= 0)
        return u"the table has no rows; a table of positions is L x d with L >= 1"_s;
    QString error;
    const std::optional<TableSample> sample = readSample(table, kSampleCells, error, declared.queryStart);
    if (!sample)
        return error;
    const RowFraming framing = frameRows(*sample);
    const std::vector<std::int64_t> compared = comparedIndices(*sample, framing);
    TableMatch unknown;
    unknown.verdict = CheckVerdict::Unknown;
    unknown.unreferenced = CheckDiagnosis::noReference();
    if (sample->infiniteRow < 0 && sample->values.cwiseAbs().maxCoeff() == 0.0f) {
        unknown.diagnosis = CheckDiagnosis::allZero();
        return unknown;
    }
    // A mask's region that is no causal mask is set aside first (MaskRegion.h).
    const auto again = [&](const TableRows &t) { return identifyTable(t, declared, transpose); };
    if (const auto padding = MaskRegion::padding(*sample))
        return MaskRegion::padded(table, *padding, again);
    if (MaskRegion::transposedCausal(*sample))
        if (auto flipped = MaskRegion::transposed(table, again))
            return *flipped;
    TableEvidence evidence {table, *sample, framing, valuesFormat(table, *sample), declared};
    evidence.infinite = sample->infiniteRow >= 0;
    evidence.sameRow = !evidence.infinite && sameRows(*sample, compared, table.textRounding());
    std::vector<TableCandidate> candidates = askFamilies(evidence);
    if (ScoringCancel::requested()) // nothing read after Ctrl+C: no rival, transpose or region searched
        return kCancelled;
    const TableCandidate *claim = bestClaim(candidates, declared); // a bias up to a row's constant:
    if (auto read = !claim || !claim->match.reference ? RowConstant::read(evidence) : std::nullopt)
        return *read;
    if (const TableCandidate *best = bestClaim(candidates, declared)) {
        if (const TableCandidate *rival = rivalClaim(candidates, *best, declared))
            return ambiguousMatch(*best, *rival);
        TableMatch match = best->match;
        if (!best->match.reference) {
            if (transpose) {
                if (auto flipped = transposedMatch(table, declared))
                    return *flipped;
            }
            if (auto changed = changedRegion(candidates, *sample, declared))
                return *changed;
            // A learned table: the nearest formula, however far, and its error.
            if (const QString near = nearestNote(candidates, std::numeric_limits<double>::infinity()); !near.isEmpty())
                match.notes.append(near);
        }
        keepPromise(match);
        return match;
    }
    // An infinity no family's table holds there, and no mask's region, is a mistake (in a float64
    // table it may be a number past float32's range, which is not read); a causal mask's is set
    // aside, the table then unknown as any other (exit 3 stays for what cannot be read).
    if (evidence.infinite && !sample->causalMask && table.storedType() == StoredType::Float64)
        return CheckDiagnosis::infinityRefused(sample->infiniteRow, sample->infiniteColumn, table.storedType());
    if (evidence.infinite && !sample->causalMask)
        return MaskRegion::strayInfinity(*sample, table.storedType());
    if (evidence.sameRow) {
        TableMatch same;
        same.verdict = CheckVerdict::Mistake;
        same.mistakes = {CheckMistakes::kSameRow};
        same.firstPositionRow = framing.firstRow;
        same.diagnosis = CheckDiagnosis::sameRow();
        same.unreferenced = CheckDiagnosis::noReference();
        return same;
    }
    if (compared.size() < 3) {
        unknown.diagnosis = CheckDiagnosis::tooFewRows(table.rows());
        return unknown;
    }
    if (transpose) {
        if (auto flipped = transposedMatch(table, declared))
            return *flipped;
    }
    TableMatch unread = changedRegion(candidates, *sample, declared).value_or(unknownMatch(candidates));
    if (evidence.infinite && unread.verdict == CheckVerdict::Unknown)
        unread.notes.prepend(CheckDiagnosis::causalMaskSetAside());
    return unread;
}

std::variant<TableMatch, QString> expectFamily(const TableRows &table, Encoding family, const Params &params,
                                               const QString &tableWord, const Declared &declared)
{
    const FamilySpec &spec = Families::spec(family);
    if (!FamilyChecks::of(spec.encoding).table || !FamilyChecks::of(spec.encoding).table->expect)
        return u"the %1 family has no table to compare with"_s.arg(spec.word);
    if (table.cols() <= 0 || table.rows() <= 0)
        return u"the table is empty; a table of positions is L x d with L, d >= 1"_s;
    QString error;
    const std::optional<TableSample> sample = readSample(table, kSampleCells, error, declared.queryStart);
    if (!sample)
        return error;
    if (const auto padding = MaskRegion::padding(*sample))
        return MaskRegion::padded(table, *padding, [&](const TableRows &inner) {
            return expectFamily(inner, family, params, tableWord, declared);
        });
    const RowFraming framing;
    TableEvidence evidence {table, *sample, framing, valuesFormat(table, *sample), declared};
    evidence.infinite = sample->infiniteRow >= 0;
    auto expected = FamilyChecks::of(spec.encoding).table->expect(evidence, params, tableWord);
    if (auto *match = std::get_if<TableMatch>(&expected)) {
        match->family = family;
        RowConstant::expectShifted(*match, evidence, *FamilyChecks::of(spec.encoding).table);
        // The declared reference is what a correct table equals; a family that could not tell
        // (M-RoPE's ids when no prompt is declared) keeps its unknown, and a mistake no name
        // explains stays a mistake.
        const bool equals = match->verdict == CheckVerdict::Correct || match->verdict == CheckVerdict::Variant;
        if (match->mistakes.empty() && equals)
            asDeclaredReference(*match);
    }
    return expected;
}

} // namespace

std::uint64_t identifyCells(std::int64_t rows, std::int64_t cols, bool textTable)
{
    const std::uint64_t arrays = textTable ? 2 : 1; // the values, and a text table's own roundings
    const auto sampleOf = [&](std::int64_t r, std::int64_t c) {
        return 2 * arrays * std::uint64_t(sampleRows(r, c, kSampleCells).size())
            * std::uint64_t(std::max<std::int64_t>(c, 1));
    };
    std::uint64_t cells = sampleOf(rows, cols);
    if (mayBeTransposed(rows, cols)) {
        const std::int64_t positions = std::min(cols, kTransposedPositions);
        cells += std::uint64_t(positions) * std::uint64_t(rows) + sampleOf(positions, rows);
    }
    return cells;
}

std::variant<TableMatch, QString> identify(const TableRows &table, const Declared &declared,
                                           const std::atomic<bool> *cancel)
{
    const ScoringCancel scope(cancel);
    const auto windowed = [&](const TableRows &t) { // rows at a window nothing declared: said
        auto read = identifyTable(t, declared, true);
        PositionWindows::readAt(read, t, declared, [&](const Declared &d) { return identifyTable(t, d, true); });
        return read;
    };
    auto identified = windowed(table);
    TableRounding::readDirected(identified, table, windowed); // a half format's directed rounding
    if (ScoringCancel::requested())
        return kCancelled;
    return identified;
}

std::variant<TableMatch, QString> expect(const TableRows &table, Encoding family, const Params &params,
                                         const QString &tableWord, const std::atomic<bool> *cancel,
                                         const Declared &declared)
{
    const ScoringCancel scope(cancel);
    const auto declaredTable = [&](const TableRows &t) { return expectFamily(t, family, params, tableWord, declared); };
    auto expected = declaredTable(table);
    TableRounding::readDirected(expected, table, declaredTable); // a half format's directed rounding, as identify's
    if (ScoringCancel::requested())
        return kCancelled;
    return expected;
}

} // namespace posenc::TableCheck
