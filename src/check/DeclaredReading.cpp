#include "DeclaredReading.h"

#include "check/CheckDiagnosis.h"
#include "check/DeclaredStructure.h"
#include "check/DeviationRegion.h"
#include "check/FamilyCheck.h"
#include "check/TableAgainstTable.h"
#include "check/TableReference.h"
#include "check/VerdictNames.h"
#include "core/FamilySpec.h"
#include "core/NumberText.h"
#include "core/ParamTable.h"

#include <QLocale>

#include <algorithm>
#include <cmath>
#include <tuple>

using namespace Qt::StringLiterals;

namespace posenc::TableCheck {

void asDeclaredReference(TableMatch &match)
{
    if (match.verdict == CheckVerdict::Variant)
        match.diagnosis = u"the table is %2, %1, a form none of posenc's published forms "
                          "uses"_s.arg(match.referenceText, DeclaredWords::reference());
    match.verdict = CheckVerdict::Correct;
    match.correctAgainst = CheckDiagnosis::declaredReference(match.referenceText);
}

void nameDeclaredMistake(TableMatch &declared, const TableMatch &read)
{
    if (declared.verdict != CheckVerdict::Mistake || declared.deviations.isEmpty())
        return;
    if (read.verdict == CheckVerdict::Unknown || read.diagnosis.isEmpty())
        return;
    // A family that named the declared parameters the table differs in keeps its names; what the
    // table reads as undeclared is still said.
    const bool named = !declared.mistakes.isEmpty();
    // The same words, or the declared ones with their source after them ("... (preset llama-3-1-8b)"):
    // "attention factor 1" is no prefix of another reference's "attention factor 1.5".
    const bool sameReference = !read.referenceText.isEmpty() && read.family == declared.family
        && (declared.referenceText == read.referenceText
            || declared.referenceText.startsWith(read.referenceText + u" ("_s));
    if (!named && sameReference && read.verdict == CheckVerdict::Mistake && !read.mistakes.isEmpty()) {
        declared.mistakes = read.mistakes;
        declared.positionOffset = read.positionOffset;
        declared.firstPositionRow = read.firstPositionRow;
        declared.notes.prepend(declared.diagnosis);
        declared.diagnosis = read.diagnosis;
        return;
    }
    QString what = CheckWords::verdictWithNames(read.verdict, read.mistakes);
    if (!read.referenceText.isEmpty() && read.verdict != CheckVerdict::Correct)
        what += u" against "_s + read.referenceText;
    QString where;
    if (read.verdict == CheckVerdict::Mistake && read.mistakes.isEmpty() && !read.deviations.isEmpty())
        where = u" (%1)"_s.arg(read.deviations);
    declared.notes.prepend(u"read without the declaration, the table is %1: %2%3"_s.arg(what, read.diagnosis, where));
}

bool betterCandidate(const Candidate &x, const Candidate &y, const QString &readAs)
{
    const auto rank = [&](const Candidate &c) {
        const bool deviates = c.verification.deviatingCells > 0;
        return std::tuple {deviates, deviates && !c.namedHolds, deviates && c.match.table != readAs,
                           deviates && !c.rowOfReference, c.verification.deviatingCells, c.verification.maxAbsError,
                           // Of equal ones, the fewer named: a config's two layouts of one model (GLM's
                           // half table its apply interleaves) read a table alike but for the layout.
                           c.match.mistakes.size()};
    };
    return rank(x) < rank(y);
}

void nameDeclaredParameter(TableMatch &match, const TableMatch &read, Encoding family, const Params &params)
{
    if (read.family != family || match.verdict != CheckVerdict::Mistake || !match.mistakes.isEmpty()
        || read.verdict == CheckVerdict::Unknown || read.verdict == CheckVerdict::Mistake)
        return;
    const auto &table = FamilyChecks::of(family).table;
    if (!table || !table->nameDeclaredParameter)
        return;
    const auto named = table->nameDeclaredParameter(read, params);
    if (!named || named->mistakes.isEmpty())
        return;
    match.mistakes = named->mistakes;
    match.notes.prepend(match.diagnosis);
    match.diagnosis = u"the table's frequencies: "_s + named->diagnosis;
}

namespace {

// Whether every cell of the table is 0, read a run of rows at a time: false at the first cell that
// is not (row 0 of most tables), or a row that cannot be read.
bool everyCellZero(const TableRows &table)
{
    constexpr std::int64_t kRun = 64;
    std::vector<float> rows(std::size_t(kRun * std::max<std::int64_t>(table.cols(), 1)));
    QString error;
    for (std::int64_t r0 = 0; r0 < table.rows(); r0 += kRun) {
        const std::int64_t count = std::min(kRun, table.rows() - r0);
        if (!table.read(r0, count, rows.data(), error))
            return false;
        const auto end = rows.begin() + std::ptrdiff_t(count * table.cols());
        if (std::any_of(rows.begin(), end, [](float x) { return x != 0.0f; }))
            return false;
    }
    return true;
}

// A table that holds 0 in every cell where a reference that is not 0 throughout was declared: no
// computation of the reference at any precision gives it. It is the position term dropped, masked
// to 0 or never filled (speechbrain#2276: FastSpeech2's sinusoid multiplied by an inverted padding
// mask; mindone#409: Latte's temp_embed left at its zeros init), named as a region overwritten
// with 0 that is the whole table. The precision guessed from its values says nothing of a 0.
void nameAllZero(TableMatch &match, const TableRows &table)
{
    if (match.verdict != CheckVerdict::Mistake || !match.mistakes.isEmpty() || !everyCellZero(table))
        return;
    match.mistakes = {CheckMistakes::kCellsOverwritten};
    match.precision.reset();
    match.notes.prepend(match.diagnosis);
    match.diagnosis = u"every cell is 0 where %1 is %2: the table holds no positions at all (a position "
                      "embedding dropped, multiplied by a mask of zeros, or a buffer left at its zeros "
                      "init and never filled)"_s.arg(DeclaredWords::reference(), match.referenceText);
}

// The rows most read back to see whether the deviating ones hold only zeros, and the reference's
// rows read to see that none of them is zeros (a table's worth at posenc's sizes; past it, the
// deviation stays unexplained rather than read at length).
constexpr std::int64_t kMostZeroRowsRead = 65536;

// Whether a row of `reference` among the first kMostZeroRowsRead it compares holds `value` in every
// column (a RoPE sin table's zeros at position 0, its cos table's ones, a causal bucket map's first
// query): rows of that value may then be rows gathered at that position (a padded batch's ids
// clamped to 0), or nothing is known (true).
bool referenceHasRowOf(const TableReference &reference, std::int64_t rows, float value)
{
    constexpr std::int64_t kChunk = 256;
    const std::int64_t cols = reference.cols(), most = std::min(rows, kMostZeroRowsRead);
    if (rows > kMostZeroRowsRead || cols < 1)
        return true;
    const float near = 1e-6f * std::max(1.0f, std::fabs(value));
    RowMatrixXf chunk(kChunk, cols);
    for (std::int64_t r0 = 0; r0 < most; r0 += kChunk) {
        const std::int64_t count = std::min(kChunk, most - r0);
        reference.fill({r0, count, 0, cols}, chunk.topRows(count));
        for (std::int64_t r = 0; r < count; ++r)
            if (reference.compared(r0 + r) && (chunk.row(r).array() - value).abs().maxCoeff() <= near)
                return true;
    }
    return false;
}

// Deviating rows, and only they, that hold one value in every cell other than zeros no reference row
// holds (0.5 throughout, a cos cache's ones, a sin cache's zeros away from position 0): rows
// overwritten with a constant (a cache initialised with torch.ones or a fill and never written
// there), cells-overwritten, the rows named. Where the reference holds that row at one position
// (position 0's), an id clamped there gives it too: declared, still cells-overwritten (the rows'
// neighbours hold their own positions, as no reset of the ids leaves them; runs of rows at the table's
// ends, a padded batch's, are left), said; undeclared, left.
void nameConstantRows(TableMatch &match, float value, bool atSomePosition, const QString &rows, bool referenceGiven)
{
    if (atSomePosition && !referenceGiven)
        return;
    match.notes.prepend(match.diagnosis);
    match.mistakes = {CheckMistakes::kCellsOverwritten};
    match.diagnosis = u"the table is %1 but for %2, which hold %3 in every cell, one value throughout: %4 (a "
                      "buffer filled with a constant and never written there, or rows a cache overwrote)"_s.arg(
                          match.referenceText, rows, NumberText::compact(double(value), 6),
                          atSomePosition ? u"the reference's row at one position holds it too (position 0's), "
                                           "so an id clamped there gives such a row, yet the rows around it hold "
                                           "their own positions"_s
                                         : u"no computation of it gives such a row at any position"_s);
}

// A table whose deviating rows, and only they, hold 0 in every cell, where no row of the
// reference is zeros (no row of a sinusoid, nor of a RoPE cos cache or a bias away from position
// 0): rows no computation of the reference gives at any position. Against a reference the user
// gave, the mistake cells-overwritten (a buffer filled only in part, rows a padding mask or a
// cache overwrote; speechbrain#2276's mask, here of some rows); undeclared, said and unknown, since
// a position term multiplied by a padding mask holds such rows faithfully (as --apply's Y does).
//
// Rows of zeros the family's own reading of the table leaves uncompared (`readAs` correct, of the
// declared family: an embedding's padding_idx row, fairseq's SinusoidalPositionalEmbedding
// get_embedding emb[padding_idx, :] = 0, the Transformer ports' position_encoding_init zeroing
// position 0) are a published form of the declared reference: correct, the rows said.
void nameZeroRows(TableMatch &match, const TableRows &table, const Verification &v, bool referenceGiven,
                  const std::optional<TableMatch> &readAs)
{
    const RowRuns &runs = v.deviatingRowRuns;
    if (match.verdict != CheckVerdict::Mistake || !match.mistakes.isEmpty() || v.deviatingCells == 0 || runs.scattered
        || runs.runs.empty() || v.deviatingRows > kMostZeroRowsRead || !match.reference)
        return;
    std::vector<float> row(std::size_t(std::max<std::int64_t>(table.cols(), 1)));
    QString error;
    std::optional<float> held; // the one value every cell of the deviating rows holds
    for (const RowRuns::Run &run : runs.runs) {
        for (std::int64_t k = 0; k < run.count; ++k) {
            if (!table.read(run.first + k * run.step, 1, row.data(), error))
                return;
            const float first = held.value_or(row.front());
            if (!std::isfinite(first) || std::any_of(row.begin(), row.end(), [first](float x) { return x != first; }))
                return;
            held = first;
        }
    }
    const float value = held.value_or(0.0f);
    const bool atSomePosition = referenceHasRowOf(*match.reference, table.rows(), value);
    const QString rows = DeviationRegion::rowWords(runs, v.deviatingRows, v.comparedRows, table.rows());
    if (value != 0.0f || atSomePosition) {
        // Rows at position 0's value at the table's ends are a padded batch's ids clamped there.
        const bool interior = std::all_of(runs.runs.begin(), runs.runs.end(), [&](const RowRuns::Run &run) {
            return run.first > 0 && run.last() < table.rows() - 1 && run.step <= 1;
        });
        if (!atSomePosition || interior)
            nameConstantRows(match, value, atSomePosition, rows, referenceGiven);
        return;
    }
    const bool framedByReading = readAs && readAs->verdict == CheckVerdict::Correct && readAs->reference
        && readAs->family && readAs->family == match.family
        && std::all_of(runs.runs.begin(), runs.runs.end(), [&](const RowRuns::Run &run) {
               for (std::int64_t k = 0; k < run.count; ++k) {
                   if (readAs->reference->compared(run.first + k * run.step))
                       return false;
               }
               return true;
           });
    if (framedByReading) {
        asDeclaredReference(match);
        match.diagnosis = readAs->diagnosis;
        // The reading's error, over the rows it compares; its notes but its own of the zero rows.
        match.maxAbsError = readAs->maxAbsError;
        match.worstRow = readAs->worstRow;
        match.worstColumn = readAs->worstColumn;
        match.notes.clear();
        for (const QString &note : readAs->notes) {
            if (!note.contains(u" zeros"_s))
                match.notes.append(note);
        }
        match.deviations.clear();
        match.notes.append(u"zeros in every cell of %1, as an embedding's padding row holds them (fairseq's "
                           "padding_idx): not compared"_s.arg(rows));
        return;
    }
    match.notes.prepend(match.diagnosis);
    if (referenceGiven) {
        match.mistakes = {CheckMistakes::kCellsOverwritten};
        match.diagnosis = u"the table is %1 but for %2, which hold 0 in every cell: no computation of it gives a row "
                          "of zeros at any position (a buffer filled only in part, or rows a padding mask or a cache "
                          "overwrote)"_s.arg(match.referenceText, rows);
        return;
    }
    match.verdict = CheckVerdict::Unknown;
    match.correctAgainst.clear();
    match.diagnosis = u"the table is %1 but for %2, which hold 0 in every cell, as no row of it does: a position "
                      "term multiplied by a padding mask holds such rows, a buffer never filled does too; declare "
                      "the reference (--expect and its flags, --preset, --config, --expect-table) and such rows are "
                      "the mistake %3"_s.arg(match.referenceText, rows, CheckMistakes::kCellsOverwritten);
}

// A declared family's deviating table unnamed: a defect of the declared reference's computation
// that gives every cell, as the family names it (TableHypothesis::nameDeclaredDefect).
void nameDeclaredDefect(TableMatch &match, std::optional<Encoding> family, const TableRows &table)
{
    if (!family || match.verdict != CheckVerdict::Mistake || !match.mistakes.isEmpty() || match.deviations.isEmpty())
        return;
    const auto &hypothesis = FamilyChecks::of(*family).table;
    if (!hypothesis || !hypothesis->nameDeclaredDefect)
        return;
    if (auto named = hypothesis->nameDeclaredDefect(match, table))
        match = std::move(*named);
}

// A declared family's deviating table still unnamed: the lower precision of the declared
// reference that gives it, as the family names it (TableHypothesis::nameDeclaredPrecision).
void nameDeclaredPrecision(Streamed &best, std::optional<Encoding> family, const TableRows &table)
{
    if (!family || best.match.verdict != CheckVerdict::Mistake || !best.match.mistakes.isEmpty())
        return;
    const auto &hypothesis = FamilyChecks::of(*family).table;
    if (!hypothesis || !hypothesis->nameDeclaredPrecision)
        return;
    if (auto named = hypothesis->nameDeclaredPrecision(best.match, table, best.verification.someDeviatingRows))
        best.match = std::move(*named);
}

// At most this many differing parameters are tried, alone and in pairs.
constexpr std::size_t kMostTried = 8;

// The family's parameter rows (its own and those it borrows) whose values differ between the
// declaration and the reading, and which the reading does not leave idle.
std::vector<const ParamSpec *> differingRows(Encoding family, const Params &declared, const Params &read)
{
    const FamilySpec &spec = Families::spec(family);
    std::vector<const ParamSpec *> rows;
    for (const ParamSpec &row : ParamTable::rows()) {
        const bool ofFamily = row.family && (*row.family == family || spec.borrowsRow(*row.family, row.key));
        if (row.group != ParamGroup::Family || !ofFamily || !row.value || !row.assign || !row.isFlag)
            continue;
        if ((row.idle && row.idle(read)) || row.value(read) == row.value(declared))
            continue;
        rows.push_back(&row);
    }
    return rows;
}

// Whether the declaration with `rows` set as the reading has them gives the table: its sample
// (expect), then every row streamed with no more cells beyond the rounding than the reading's own
// rows leave (`allowed`: the rows a reading that explains the table does not hold, a damaged region).
bool explains(const TableRows &table, const QString &word, Encoding family, Params params, const Params &read,
              const std::vector<const ParamSpec *> &rows, StreamOptions options, std::int64_t allowed)
{
    for (const ParamSpec *row : rows)
        row->assign(params, row->value(read));
    if (!params.isValid())
        return false;
    auto expected = expect(table, family, params, word, options.cancel);
    const auto *match = std::get_if<TableMatch>(&expected);
    if (!match || match->verdict != CheckVerdict::Correct || !match->mistakes.isEmpty())
        return false;
    options.progress = nullptr;
    const Verification verification = verify(*match, table, options);
    return !verification.cancelled && !verification.error && verification.comparedRows > 0
        && verification.deviatingCells <= allowed;
}

// The words after a parameter named by a mistake of its own (TableHypothesis::parameterMistakes):
// its id, and where the declaration left it at its default, that the default was compared.
QString ownMistakeWords(const QString &id, const ParamSpec &row, bool declaredIt)
{
    return declaredIt
        ? u" (%1)"_s.arg(id)
        : u" (%1; the default was compared, as none was declared: --%2 declares the one meant)"_s.arg(id, row.key);
}

// A declared family's deviating table that the undeclared reading finds to be the family's at
// other parameters: the fewest of the parameters that differ (one, else two) that, set in the
// declaration, give every row of the table are named, each with both values.
void nameDifferingParameters(TableMatch &match, const TableMatch &read, const TableRows &table, Encoding family,
                             const Params &declared, const std::optional<QStringList> &given,
                             const StreamOptions &options, std::int64_t allowed)
{
    const std::vector<const ParamSpec *> rows = differingRows(family, declared, *read.params);
    if (rows.empty() || rows.size() > kMostTried)
        return;
    std::vector<std::vector<const ParamSpec *>> tried;
    for (const ParamSpec *row : rows)
        tried.push_back({row});
    for (std::size_t i = 0; i < rows.size(); ++i)
        for (std::size_t j = i + 1; j < rows.size(); ++j)
            tried.push_back({rows[i], rows[j]});
    for (const auto &set : tried) {
        if (options.cancel && options.cancel->load())
            return;
        if (!explains(table, match.table, family, declared, *read.params, set, options, allowed))
            continue;
        QStringList said;
        const auto &hypothesis = FamilyChecks::of(family).table;
        for (const ParamSpec *row : set) {
            // A parameter with a mistake of its own (a head bias's mask: bias-mask) is named by it.
            const QString id = hypothesis ? hypothesis->parameterMistakes.value(row->key, row->key) : row->key;
            match.mistakes.append(id);
            const bool declaredIt = !given || given->contains(row->key);
            said.append(u"%1 %2 %3 %4%5"_s.arg(row->key, valueText(*row, *read.params),
                                               declaredIt ? DeclaredWords::whereGiven() : DeclaredWords::whereDefault(),
                                               valueText(*row, declared),
                                               id == row->key ? QString() : ownMistakeWords(id, *row, declaredIt)));
        }
        match.notes.prepend(match.diagnosis);
        match.diagnosis = allowed == 0
            ? u"%1 but %2: with %3 the table is correct in every row"_s.arg(
                DeclaredWords::parameters(), said.join(u"; "_s), set.size() == 1 ? u"that value"_s : u"those values"_s)
            : u"%1 but %2: with %3 only the rows its reading does not hold deviate"_s.arg(
                DeclaredWords::parameters(), said.join(u"; "_s), set.size() == 1 ? u"that value"_s : u"those values"_s);
        return;
    }
}

// A mistake read from the sample (position-offset) whose table the family gives
// (TableMatch::asRead): every row streamed against it, and cells it does not hold said after its
// words (a table from position 5 with rows 290..299 zeroed), as a correct or variant reading's
// are. Whether that table explains the rows as a claim does the sample (at most a cell in ten
// beyond the rounding); nothing when cancelled.
std::optional<bool> streamMistakeReading(TableMatch &read, const TableRows &table, const StreamOptions &options)
{
    if (read.verdict != CheckVerdict::Mistake || read.mistakes.isEmpty() || !read.asRead)
        return true;
    TableMatch asRead = read;
    asRead.reference = read.asRead;
    asRead.tolerance = read.asReadTolerance;
    const Verification v = verify(asRead, table, options);
    if (v.cancelled || (options.cancel && options.cancel->load()))
        return std::nullopt;
    if (v.error || v.deviatingCells == 0)
        return true;
    const QString lie = v.deviatingCells == 1
        ? u": row %1, column %2"_s.arg(v.deviationRow).arg(v.deviationColumn)
        : DeviationRegion::where(
            {v.deviatingRowRuns, v.deviatingRows, v.comparedRows, v.columnDeviations, v.deviatingCells, table.rows()});
    read.diagnosis += u"; but %1 from the table %2 makes, which it does not explain%3"_s.arg(
        v.deviatingCells == 1 ? u"one cell deviates"_s : u"%1 cells deviate"_s.arg(v.deviatingCells),
        read.mistakes.join(u", "_s), lie.isEmpty() || v.deviatingCells == 1 ? lie : u": they lie "_s + lie);
    return posenc::explains(v.comparedRows * table.cols(), v.deviatingCells);
}

// The cells a reading that explains the table does not hold in its streamed rows, and where.
struct DamagedRows
{
    std::int64_t cells = 0;
    QString where;
};

QString regionWords(const Verification &v, const TableRows &table)
{
    if (v.deviatingCells == 1)
        return u"at row %1, column %2"_s.arg(v.deviationRow).arg(v.deviationColumn);
    return DeviationRegion::where(
        {v.deviatingRowRuns, v.deviatingRows, v.comparedRows, v.columnDeviations, v.deviatingCells, table.rows()});
}

// A mistake read from the sample that its streamed rows do not bear out: its name dropped and its
// words kept in a note, the diagnosis the reference's deviating cells (then said unexplained).
void unnameReading(TableMatch &match, const Verification &v)
{
    match.notes.prepend(u"read from the sampled rows as %1: %2"_s.arg(match.mistakes.join(u", "_s), match.diagnosis));
    match.mistakes.clear();
    const QString where = u"row %1, column %2"_s.arg(v.deviationRow).arg(v.deviationColumn);
    match.diagnosis = v.deviatingCells == 1
        ? u"one cell deviates from %1: %2 is off by %3"_s.arg(match.referenceText, where,
                                                              NumberText::compact(v.deviationError, 3))
        : u"%1 cells deviate from %2 beyond the rounding, the largest at %3 (off by %4)"_s.arg(v.deviatingCells)
              .arg(match.referenceText, where, NumberText::compact(v.deviationError, 3));
}

} // namespace

std::variant<Streamed, StreamStop> streamDeclared(DeclaredRows declared, const TableRows &table,
                                                  const StreamOptions &options)
{
    const auto cancelled = [&] { return options.cancel && options.cancel->load(); };
    // The sentences made below, a family's among them, say who gave the reference.
    const DeclaredWords::Scope words(declared.by);
    const QString readAs = declared.readAs ? declared.readAs->table : QString();
    std::optional<Streamed> best;
    bool bestNamedHolds = false, bestRowOfReference = false;
    for (TableMatch &candidate : declared.candidates) {
        Verification verification = verify(candidate, table, options);
        if (verification.cancelled || cancelled())
            return StreamStop {StreamStop::Why::Cancelled, kCancelled};
        if (verification.error)
            return StreamStop {StreamStop::Why::Table, *verification.error};
        if (const auto unread = referenceReadError(candidate))
            return StreamStop {StreamStop::Why::Reference, *unread};
        // Of several tables declared (RoPE's cos and sin), one whose named mistake's table every row
        // bears out (a cos table from position 100: position-offset) is what the table is.
        bool namedHolds = false;
        if (declared.candidates.size() > 1 && verification.deviatingCells > 0 && !candidate.mistakes.isEmpty()
            && candidate.asRead) {
            TableMatch probe = candidate;
            StreamOptions quiet = options;
            quiet.progress = nullptr;
            const std::optional<bool> holds = streamMistakeReading(probe, table, quiet);
            if (!holds)
                return StreamStop {StreamStop::Why::Cancelled, kCancelled};
            namedHolds = *holds;
        }
        // Of several, one that deviates: whether its reference holds the table's first row elsewhere.
        const bool rowOfReference = declared.candidates.size() > 1 && verification.deviatingCells > 0
            && firstRowIsReferenceRow(candidate, table);
        if (!best
            || betterCandidate({candidate, verification, namedHolds, rowOfReference},
                               {best->match, best->verification, bestNamedHolds, bestRowOfReference}, readAs)) {
            best = Streamed {std::move(candidate), std::move(verification)};
            bestNamedHolds = namedHolds;
            bestRowOfReference = rowOfReference;
        }
    }
    if (!best)
        return StreamStop {StreamStop::Why::Table, u"nothing to compare the table with"_s};
    conclude(best->match, best->verification);
    StreamOptions quiet = options;
    quiet.progress = nullptr;
    // Undeclared, a mistake identified from the sample is streamed as the table it makes too; one
    // its rows do not bear out names nothing, as a declared reading's (its words in a note).
    if (!declared.readAs) {
        const std::optional<bool> holds = streamMistakeReading(best->match, table, quiet);
        if (!holds)
            return StreamStop {StreamStop::Why::Cancelled, kCancelled};
        if (!*holds && best->verification.deviatingCells > 0)
            unnameReading(best->match, best->verification);
    }
    nameDeclaredDefect(best->match, declared.family, table);
    if (declared.readAs) {
        // The reading was made from sampled rows. Before it names the deviation or is said to be
        // correct, its every row is streamed too: a table that is the reading's but for some rows
        // deviates from the reading as well, and no parameter the reading differs in explains it.
        TableMatch &read = *declared.readAs;
        // The reading as the family gave it, kept where its rows bear it out but for a region (a
        // few rows zeroed): the parameters it differs in are named from it, the region said after.
        std::optional<TableMatch> readingOfRows;
        std::optional<DamagedRows> damaged;
        if (best->match.verdict == CheckVerdict::Mistake && read.reference
            && (read.verdict == CheckVerdict::Correct || read.verdict == CheckVerdict::Variant)) {
            const Verification rows = verify(read, table, quiet);
            if (rows.cancelled || cancelled())
                return StreamStop {StreamStop::Why::Cancelled, kCancelled};
            if (!rows.error && rows.deviatingCells > 0) {
                // Whole rows damaged (zeroed, negated), at most one in ten: not cells scattered by
                // another computation's rounding, which names no parameter.
                const bool rowsDamaged = rows.deviatingRows * 10 <= rows.comparedRows
                    && 2 * rows.deviatingCells >= rows.deviatingRows * table.cols();
                if (rowsDamaged && posenc::explains(rows.comparedRows * table.cols(), rows.deviatingCells)) {
                    readingOfRows = read;
                    damaged = DamagedRows {rows.deviatingCells, regionWords(rows, table)};
                }
                conclude(read, rows);
            }
        }
        if (best->match.verdict == CheckVerdict::Mistake) {
            const std::optional<bool> holds = streamMistakeReading(read, table, quiet);
            if (!holds)
                return StreamStop {StreamStop::Why::Cancelled, kCancelled};
            // A reading its rows do not bear out names nothing: it is said in a note.
            if (!*holds)
                read.mistakes.clear();
        }
        if (!nameDeclaredStructure(best->match, read, table))
            nameDeclaredMistake(best->match, read);
        const TableMatch &family = readingOfRows ? *readingOfRows : read;
        if (declared.family)
            nameDeclaredParameter(best->match, family, *declared.family, declared.params);
        const bool ofFamily = declared.family && family.family == declared.family && family.params
            && (family.verdict == CheckVerdict::Correct || family.verdict == CheckVerdict::Variant);
        if (ofFamily && best->match.verdict == CheckVerdict::Mistake && best->match.mistakes.isEmpty())
            nameDifferingParameters(best->match, family, table, *declared.family, declared.params, declared.given,
                                    options, damaged ? damaged->cells : 0);
        if (damaged && !best->match.mistakes.isEmpty() && readingOfRows)
            best->match.diagnosis
                += u"; and %1 beyond the rounding of that table too, which no parameter "
                   "explains: they lie %2"_s.arg(damaged->cells == 1 ? u"one cell deviates"_s
                                                                     : u"%1 cells deviate"_s.arg(damaged->cells),
                                                 damaged->where);
    }
    nameDeclaredPrecision(*best, declared.family, table);
    nameAllZero(best->match, table);
    const Verification &v = best->verification;
    nameZeroRows(best->match, table, v, declared.referenceGiven, declared.readAs);
    if (best->match.verdict == CheckVerdict::Mistake && best->match.mistakes.isEmpty() && v.deviatingCells > 0)
        DeviationRegion::sayUnexplained(
            best->match, declared.family ? Families::spec(*declared.family).heading : QString(),
            {v.deviatingRowRuns, v.deviatingRows, v.comparedRows, v.columnDeviations, v.deviatingCells, table.rows()});
    return std::move(*best);
}

QString valueText(const ParamSpec &row, const Params &params)
{
    const ParamValue value = row.value(params);
    if (const double *number = std::get_if<double>(&value))
        return QString::number(*number, 'g', QLocale::FloatingPointShortest);
    return row.text(params);
}

} // namespace posenc::TableCheck
