#include "CheckTensor.h"

#include "BudgetAdvice.h"
#include "CheckFamilyStack.h"
#include "CheckQueryWindows.h"
#include "CheckStackSlice.h"
#include "ExitCode.h"
#include "ProgressLine.h"

#include "check/DeclaredReading.h"
#include "check/DeclaredWords.h"
#include "check/FamilyCheck.h"
#include "check/PairedTables.h"
#include "check/PositionWindows.h"
#include "check/ReferenceReading.h"
#include "check/TableRatio.h"
#include "check/TableRowRuns.h"
#include "check/TensorShapes.h"
#include "core/FamilySpec.h"
#include "io/TableFile.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc::CheckTensor {

namespace {

int fail(QTextStream &err, int code, const QString &message)
{
    err << "posenc check: " << message << '\n';
    return code;
}

int failLines(QTextStream &err, const CheckExpect::Refusal &refusal)
{
    for (const QString &line : refusal.lines)
        err << "posenc check: " << line << '\n';
    return refusal.code;
}

// Of --expect FAMILY with no positions declared (no --positions, --position-ids or config): the
// window of positions the table's undeclared reading found its rows at, which the declared family is
// compared at; nothing where the reading found none.
std::optional<PositionWindow> windowSaid(const std::optional<TableMatch> &readAs,
                                         const CheckExpect::Expectation &expected,
                                         const TableCheck::Declared &declaration)
{
    if (!readAs || !readAs->positions || readAs->positions->declared || readAs->positions->queries
        || expected.positionsDeclared || declaration.positionsDeclared || !expected.configPath.isEmpty())
        return std::nullopt;
    return readAs->positions;
}

// An L x d table checked: against the declared reference (`expected`), else identified; every row
// streamed; a declared family's deviation read undeclared too. Or the exit code, said on `err`.
std::variant<TableMatch, int> checkRowsAsIs(const TableRows &table, const Run &given,
                                            const CheckExpect::Expectation &givenExpected, QTextStream &err)
{
    TableCheck::StreamOptions stream;
    stream.threads = given.threads;
    stream.cancel = given.interrupt.flag();
    if (const auto refused = TableCheck::fitToBudget(table, given.budget, stream))
        return fail(err, ExitOverBudget, *refused + overBudgetAdvice(u"check a narrower table"_s, given.budget));

    // Reading the table's sample and searching its families' forms has no count to show, so the
    // line shows the time, and Ctrl+C stops it within one score of the sample (ScoringCancel).
    ProgressLine line(u"posenc check"_s, !given.quiet && ProgressLine::stderrIsTerminal());
    line.stage(u"identifying %1"_s.arg(table.name()));
    // A declared family's table that deviates is read undeclared too: the mistake that explains it.
    std::optional<TableMatch> readAs;
    if (givenExpected.kind == CheckExpect::Expectation::Kind::Family) {
        // Of the declaration, the rows' positions alone (--positions): a window elsewhere is named.
        TableCheck::Declared positionsAlone;
        if (given.declaration.positionsDeclared) {
            positionsAlone.firstPosition = given.declaration.firstPosition;
            positionsAlone.positionsDeclared = true;
            positionsAlone.queryStart = given.declaration.queryStart;
        }
        auto identified = TableCheck::identify(table, positionsAlone, given.interrupt.flag());
        if (given.interrupt.interrupted())
            return fail(err, ExitInterrupted, TableCheck::kCancelled);
        if (auto *read = std::get_if<TableMatch>(&identified))
            readAs = std::move(*read);
    }
    // --expect FAMILY declares no positions: a window its reading finds is said, not judged, the
    // family compared at it (PositionWindows); --positions, --position-ids or a config judge it.
    const std::optional<PositionWindow> window = windowSaid(readAs, givenExpected, given.declaration);
    CheckExpect::Expectation atWindow = givenExpected;
    TableCheck::Declared declaredAt = given.declaration;
    if (window) {
        atWindow.firstPosition = declaredAt.firstPosition = readAs->positionOffset.value_or(window->first);
        atWindow.positionsDeclared = declaredAt.positionsDeclared = true;
    }
    const CheckExpect::Expectation &expected = atWindow;
    const Run run {atWindow, declaredAt, given.budget, given.threads, given.interrupt, given.quiet, given.heads};
    auto declaredMatches = CheckExpect::matches(expected, table, run.budget, run.interrupt.flag());
    if (run.interrupt.interrupted())
        return fail(err, ExitInterrupted, TableCheck::kCancelled);
    if (const auto *refused = std::get_if<CheckExpect::Refusal>(&declaredMatches))
        return failLines(err, *refused);
    std::vector<TableMatch> candidates = std::get<std::vector<TableMatch>>(std::move(declaredMatches));
    if (candidates.empty()) {
        auto identified = TableCheck::identify(table, run.declaration, run.interrupt.flag());
        if (run.interrupt.interrupted())
            return fail(err, ExitInterrupted, TableCheck::kCancelled);
        if (const auto *problem = std::get_if<QString>(&identified))
            return fail(err, ExitIo, u"%1: %2"_s.arg(table.name(), *problem));
        candidates.push_back(std::get<TableMatch>(std::move(identified)));
    }
    WorkProgress progress;
    stream.progress = &progress;
    line.stage(u"comparing the rows of %1"_s.arg(table.name()), &progress);
    // A family's parameters as compared: at the table's shape (its width, its rows' sequence).
    const Params params = expected.kind == CheckExpect::Expectation::Kind::Family
        ? CheckExpect::atShape(expected, table.rows(), table.cols())
        : expected.params;
    TableCheck::DeclaredRows declared {std::move(candidates), std::move(readAs), std::nullopt, params, expected.given};
    if (expected.kind == CheckExpect::Expectation::Kind::Family)
        declared.family = expected.family;
    declared.by = expected.by;
    declared.referenceGiven = expected.kind != CheckExpect::Expectation::Kind::None;
    auto streamed = TableCheck::streamDeclared(std::move(declared), table, stream);
    if (const auto *stop = std::get_if<TableCheck::StreamStop>(&streamed)) {
        using Why = TableCheck::StreamStop::Why;
        if (stop->why == Why::Cancelled || run.interrupt.interrupted())
            return fail(err, ExitInterrupted, u"interrupted"_s);
        return fail(err, ExitIo,
                    stop->why == Why::Reference ? u"--expect-table: "_s + stop->message
                                                : u"%1: %2"_s.arg(table.name(), stop->message));
    }
    TableMatch match = std::get<TableCheck::Streamed>(std::move(streamed)).match;
    // A reference table the table deviates from, with no mistake named (or its rows or columns
    // moved): the published form the reference is, read without a declaration, names it
    // (TableCheck::nameByReferenceReading).
    if (expected.kind == CheckExpect::Expectation::Kind::Table
        && (TableCheck::namedByReferenceReading(match) || TableCheck::scaledBesideAnother(match))) {
        if (const auto opened = expected.tableRows
                ? ReadResult<std::shared_ptr<const TableRows>>(expected.tableRows)
                : TableFile::open(MatrixSource::parse(expected.tablePath), run.budget, run.interrupt.flag());
            opened) {
            // A vector's reference is read as a vector (readVectorAlone), not as a table of one row.
            if (!expected.vector && !TableCheck::nameByReferenceReading(match, table, *opened.value(), stream))
                return fail(err, ExitInterrupted, u"interrupted"_s);
            // Named without the reference's reading: a constant ratio, or one run of rows moved.
            // A vector's ratio is named later by the vector's own reading, which says what made it.
            if (!expected.vector) {
                TableCheck::nameUniformRatio(match, table, *opened.value(), false);
                TableCheck::nameRowRun(match, table, *opened.value());
            }
        }
        TableCheck::unknownWithinSummation(match);
    }
    line.finish();
    if (expected.kind == CheckExpect::Expectation::Kind::Learned)
        CheckExpect::concludeLearned(match, expected);
    if (window && !match.positions)
        PositionWindows::say(match, *window);
    return match;
}

// A table, a relative map's windows of queries tried (CheckQueryWindows).
std::variant<TableMatch, int> checkRows(const TableRows &table, const Run &run,
                                        const CheckExpect::Expectation &expected, QTextStream &err)
{
    return CheckQueryWindows::checkRows(table, run, expected, err, checkRowsAsIs);
}

// A declared family's cache of half its width (candle's, vLLM's cos of the frequencies): the
// declaration at the table it stands for, compared as such; nothing for a whole table. The width a
// flag gave, else, where the table's columns do not repeat in pairs as every table of the family's
// at its own width would (TensorReading::tableWidth: rotate_half's cat(freqs, freqs)), twice the
// table's (fitTableWidth). A table of half the width whose columns repeat in pairs is a whole table
// of its own width, compared as such (RoPE's rotary-dim).
std::optional<CheckExpect::Expectation> halfCache(const TableRows &rows, const CheckExpect::Expectation &expected)
{
    if (expected.kind != CheckExpect::Expectation::Kind::Family)
        return std::nullopt;
    CheckExpect::Expectation wide = expected;
    const auto &fit = FamilyChecks::of(expected.family).fitTableWidth;
    if (!expected.widthGiven) {
        if (!fit || !TensorShapes::declaredWidth(expected.family, expected.params))
            return std::nullopt;
        fit(wide.params, 2 * rows.cols());
        wide.widthGiven = true;
    }
    if (!TensorShapes::halfWidth(expected.family, wide.params, rows.cols()) || TensorShapes::columnsRepeatInPairs(rows))
        return std::nullopt;
    return wide;
}

// Two tables side by side (PairedTables: RoPE's cos|sin cache, vLLM's cat(cos, sin)), each half
// checked as the table it stands for, against the declared family or identified. Nothing when the
// table is no such pair, or a declared family has none of its width.
std::optional<std::variant<TableMatch, int>> checkPaired(const std::shared_ptr<const TableRows> &rows, const Run &run,
                                                         const CheckExpect::Expectation &expected, QTextStream &err)
{
    using Kind = CheckExpect::Expectation::Kind;
    PairedTables::Declared declared;
    if (expected.kind == Kind::Family) {
        declared.family = expected.family;
        declared.params = expected.params;
        declared.widthGiven = expected.widthGiven;
    }
    declared.otherReference = expected.kind != Kind::None && expected.kind != Kind::Family;
    int code = 0;
    bool stopped = false;
    const auto reading = PairedTables::read(
        rows, declared,
        [&](const std::shared_ptr<const TableRows> &half, int, const QString &table) -> std::optional<TableMatch> {
            CheckExpect::Expectation each = expected;
            if (!table.isEmpty())
                each.tables = {table};
            auto checked = checkRows(*half, run, each, err);
            if (const int *failed = std::get_if<int>(&checked)) {
                code = *failed;
                return std::nullopt;
            }
            return std::get<TableMatch>(std::move(checked));
        },
        stopped);
    if (stopped)
        return code;
    if (!reading)
        return std::nullopt;
    return reading->match;
}

// --expect-table's reference for a stack: slice by slice, each slice against the reference's same
// slice (of the same shape, dimensions of 1 aside: [H, L, L] biases, [B, L, d] caches), or each
// against the one table the reference is (a cache the same for every batch element).
struct StackReference
{
    std::shared_ptr<const TableRows> stack, each;
};

std::variant<StackReference, int> stackReference(const TableRows &rows, const std::vector<std::int64_t> &shape,
                                                 TensorShapes::Kind kind, const CheckExpect::Expectation &expected,
                                                 const Run &run, QTextStream &err)
{
    auto reference = TableFile::openTensor(MatrixSource::parse(expected.tablePath), run.budget, run.interrupt.flag());
    if (!reference)
        return fail(err, exitCodeOf(reference.error()), u"--expect-table: "_s + reference.error().toString());
    const auto withoutOnes = [](std::vector<std::int64_t> s) {
        s.erase(std::remove(s.begin(), s.end(), std::int64_t(1)), s.end());
        return s;
    };
    const std::vector<std::int64_t> stacked = TensorShapes::stackShape(shape);
    const std::vector<std::int64_t> slice {stacked[stacked.size() - 2], stacked.back()};
    if (kind == TensorShapes::Kind::Stack && withoutOnes(reference->shape) == withoutOnes(shape))
        return StackReference {reference->rows, nullptr};
    if (kind == TensorShapes::Kind::Stack && withoutOnes(reference->shape) == withoutOnes(slice))
        return StackReference {nullptr, reference->rows};
    return fail(err, ExitUsage,
                u"--expect-table compares a table, a vector or a stack with the reference's of the same shape, or "
                "each table of a stack with one reference table; %1 is shape %2, the reference %3"_s.arg(
                    rows.name(), TensorShapes::shapeText(shape), TensorShapes::shapeText(reference->shape)));
}

// A vector that deviates from --expect-table's: its own reading said in a note, and the mistake named
// as the reference's reading would be declared (get_slopes(8) for a dump of 8 slopes).
void readVectorAlone(TableMatch &match, const TableRows &rows, const Run &run, std::optional<std::int64_t> heads)
{
    const auto values = TensorShapes::readVector(rows);
    const auto *v = std::get_if<std::vector<double>>(&values);
    if (!v)
        return;
    TensorShapes::VectorDeclaration alone;
    alone.heads = heads;
    const TableMatch read = TensorShapes::checkVector(*v, rows.storedType(), alone);
    if (!read.diagnosis.isEmpty())
        match.notes.prepend(
            u"read alone, the vector is %1: %2"_s.arg(CheckWords::verdict(read.verdict), read.diagnosis));
    auto reference
        = TableFile::openTensor(MatrixSource::parse(run.expected.tablePath), run.budget, run.interrupt.flag());
    if (!reference)
        return;
    const auto referenceValues = TensorShapes::readVector(*reference->rows);
    if (const auto *r = std::get_if<std::vector<double>>(&referenceValues))
        TensorShapes::nameByReferenceVector(match, *v, rows.storedType(), *r, reference->rows->storedType(), heads);
}

// A table that deviates from --expect-table's, where the reference is two of a family's tables side
// by side (Meta's complex freqs_cis read as cat(real, imaginary), vLLM's cos_sin_cache, HF's cos and
// sin dumped together): each half of the table against the reference's same half, taken as the
// reference's pair is read (PairedTables::halvesAsReference), named as a table against a reference
// table is (TableCheck::nameByReferenceReading); the first half a mistake is named in names it, the
// verdict and the deviating cells staying the comparison with the file's. A mistake found cell by
// cell stands; one the reference read as one table named stands unless the pair is the better reading of the reference,
// as the undeclared check takes it (PairedTables::pairIsBetter: a freqs_cis is RoPE's cos and sin, not the split
// sinusoid of flip_sin_to_cos its numbers also are).
void nameByReferenceHalves(TableMatch &match, const std::shared_ptr<const TableRows> &rows, const Run &run)
{
    const auto opened = run.expected.tableRows
        ? ReadResult<std::shared_ptr<const TableRows>>(run.expected.tableRows)
        : TableFile::open(MatrixSource::parse(run.expected.tablePath), run.budget, run.interrupt.flag());
    if (!opened)
        return;
    const auto halves = PairedTables::halvesAsReference(rows, opened.value());
    if (!halves)
        return;
    TableCheck::StreamOptions stream;
    stream.threads = run.threads;
    stream.cancel = run.interrupt.flag();
    // A mistake found cell by cell (columns exchanged, a block's sign flipped) stands as it is.
    if (!match.mistakes.isEmpty() && !match.rowsMoved && !match.diagnosis.startsWith(TableCheck::kReferenceReads))
        return;
    if (!match.mistakes.isEmpty()) {
        const auto asOne = TableCheck::readReference(*opened.value(), stream);
        std::optional<TableMatch> pair;
        for (const auto &half : halves->reference) {
            auto read = TableCheck::readReference(*half, stream);
            if (!read)
                return;
            if (!pair || TensorShapes::verdictRank(read->verdict) > TensorShapes::verdictRank(pair->verdict))
                pair = std::move(read);
        }
        if (asOne && !PairedTables::pairIsBetter(*asOne, *pair))
            return;
    }
    const std::int64_t half = rows->cols() / 2;
    for (int index = 0; index < 2; ++index) {
        TableMatch each = match;
        each.mistakes.clear();
        if (!TableCheck::nameByReferenceReading(each, *halves->table[index], *halves->reference[index], stream))
            return;
        if (each.verdict != CheckVerdict::Mistake || each.mistakes.isEmpty())
            continue;
        match.mistakes = each.mistakes;
        match.positionOffset = each.positionOffset;
        match.firstPositionRow = each.firstPositionRow;
        match.diagnosis
            = u"the reference is two tables side by side, [%1 | %2] of %3 columns each%4; its %5 half "
              "(columns %6..%7) against the table's: %8"_s.arg(halves->tables.value(0), halves->tables.value(1))
                  .arg(half)
                  .arg(halves->whole ? QString() : u", each the cache of half the table it stands for"_s)
                  .arg(halves->tables.value(index))
                  .arg(index * half)
                  .arg(index * half + half - 1)
                  .arg(each.diagnosis);
        return;
    }
}

// A stack that deviates from --expect-table's stack: the reference stack read without a declaration
// as a whole (ALiBi's heads together: get_slopes of its H heads, where one slice alone reads as
// another H's head), and where it is a family's at known parameters, the stack checked as if they
// had been declared; a mistake named there is named here (slopes-head-order), said against the
// reference's reading, the verdict and the deviating cells staying the comparison with the file's.
// The stack's counterpart of TableCheck::nameByReferenceReading.
void nameByReferenceStack(TableMatch &match, const TableFile::Tensor &tensor, const Run &run)
{
    auto reference
        = TableFile::openTensor(MatrixSource::parse(run.expected.tablePath), run.budget, run.interrupt.flag());
    if (!reference)
        return;
    QString discarded;
    QTextStream quiet(&discarded);
    const CheckExpect::Expectation undeclared;
    const Run alone {undeclared, run.declaration, run.budget, run.threads, run.interrupt, true, run.heads};
    const auto read = check(reference.value(), alone, quiet);
    const auto *form = std::get_if<TableMatch>(&read);
    // A family's own stack reads as learned at known parameters (T5's position_bias: its buckets are
    // T5's, its values the learned weight's): the stack is checked at those parameters too.
    const auto readsStack = [](const TableMatch &m) {
        return m.verdict == CheckVerdict::Learned && m.family && FamilyChecks::of(*m.family).readStack;
    };
    if (!form
        || !(form->verdict == CheckVerdict::Correct || form->verdict == CheckVerdict::Variant || readsStack(*form))
        || !form->family || !form->params)
        return;
    CheckExpect::Expectation declared;
    declared.kind = CheckExpect::Expectation::Kind::Family;
    declared.family = *form->family;
    declared.params = *form->params;
    // The tables --expect FAMILY tries: the reading's own, else every table of the family's.
    const QStringList familyTables = FamilyChecks::of(*form->family).table
        ? FamilyChecks::of(*form->family).table->tables
        : QStringList();
    declared.tables = familyTables.contains(form->table) ? QStringList {form->table} : familyTables;
    declared.widthGiven = declared.modelGiven = declared.lengthGiven = true;
    declared.by = DeclaredWords::By::ReferenceTable;
    const DeclaredWords::Scope words(DeclaredWords::By::ReferenceTable);
    // The reference's rows are its own positions: the window it reads at is declared.
    TableCheck::Declared atReference = run.declaration;
    if (form->positions) {
        declared.firstPosition = atReference.firstPosition = form->positions->first;
        declared.positionsDeclared = atReference.positionsDeclared = true;
        declared.queryStart = atReference.queryStart = form->positions->first;
    }
    const Run asForm {declared, atReference, run.budget, run.threads, run.interrupt, true, run.heads};
    const auto checked = check(tensor, asForm, quiet);
    const auto *named = std::get_if<TableMatch>(&checked);
    if (!named || named->verdict != CheckVerdict::Mistake || named->mistakes.isEmpty())
        return;
    match.mistakes = named->mistakes;
    // A slice's own reading of the reference (another H's head) is not the stack's.
    match.notes.removeIf([](const QString &note) { return note.startsWith(TableCheck::kReferenceReads); });
    match.diagnosis = u"the reference reads, without a declaration, as %1; against it, %2"_s.arg(
        form->correctAgainst.isEmpty() ? form->referenceText : form->correctAgainst, named->diagnosis);
}

// A mistake against --expect-table's reference named by the reference's reading: a vector's
// (readVectorAlone), key biases' (nameByReferenceStack), a table's pair (nameByReferenceHalves).
// `vector` and `keyBiases` say what the tensor was compared as.
void nameAgainstReference(TableMatch &match, const TableFile::Tensor &tensor, const Run &run, TensorShapes::Kind kind,
                          bool vector, bool keyBiases)
{
    if (vector)
        readVectorAlone(match, *tensor.rows, run, run.heads);
    else if (keyBiases && match.mistakes.isEmpty())
        nameByReferenceStack(match, tensor, run);
    else if (!keyBiases && kind == TensorShapes::Kind::Table)
        nameByReferenceHalves(match, tensor.rows, run);
}

// [B, X, 1, D] read as B slices of X rows (stackShape), or with B = 1 as one table of X rows, is also
// a decode step's cache [B, H, 1, D]: one position broadcast over its H heads, every slice's rows
// alike. Undeclared, that is no mistake of either reading (docs/ARCHITECTURE.md, Checking a table,
// "Shapes").
// A stack's (`stack` its rows) is weighed against a channel-first map's too (weighChannelsFirst).
void sameRowOfADecodeStep(TableMatch &match, const std::vector<std::int64_t> &shape,
                          const std::vector<std::int64_t> &stacked, const CheckExpect::Expectation &expected,
                          const TableRows *stack = nullptr)
{
    if (stack && expected.kind == CheckExpect::Expectation::Kind::None)
        TensorShapes::weighChannelsFirst(match, shape, *stack);
    if (shape.size() < 3 || shape[shape.size() - 2] != 1 || stacked.size() < 2
        || expected.kind != CheckExpect::Expectation::Kind::None || match.verdict != CheckVerdict::Mistake
        || !match.mistakes.contains(CheckMistakes::kSameRow))
        return;
    const std::int64_t slices = stacked.size() > 2 ? TensorShapes::slices(stacked) : 1;
    match.notes.prepend(match.diagnosis);
    match.verdict = CheckVerdict::Unknown;
    match.mistakes.clear();
    match.diagnosis = u"every slice's rows are alike: read as %1 of %2 rows (its dimension of 1 dropped) they hold "
                      "one position each, but shape %3 is also a decode step's cache [B, H, 1, D], one position "
                      "broadcast over its heads; --position-ids or --expect decides"_s
                          .arg(slices > 1 ? u"%1 slices"_s.arg(slices) : u"a table"_s)
                          .arg(stacked[stacked.size() - 2])
                          .arg(TensorShapes::shapeText(shape));
}

} // namespace

std::variant<TableMatch, int> check(const TableFile::Tensor &tensor, const Run &run, QTextStream &err)
{
    const std::shared_ptr<const TableRows> &rows = tensor.rows;
    const std::vector<std::int64_t> &shape = tensor.shape;
    const CheckExpect::Expectation &expected = run.expected;
    const std::optional<std::int64_t> heads = run.heads;
    // The declared family, whose readings alone are asked (TensorReading).
    const std::optional<Encoding> declared
        = expected.kind == CheckExpect::Expectation::Kind::Family ? std::optional(expected.family) : std::nullopt;
    const auto *headBias = declared && FamilyChecks::of(*declared).tensors.headBias
        ? &*FamilyChecks::of(*declared).tensors.headBias
        : nullptr;
    TensorShapes::Kind kind = TensorShapes::kindOf(shape);
    const auto refuse = [&] {
        return fail(err, ExitUsage,
                    u"%1: the array is %2-D, shape %3; %4"_s.arg(rows->name())
                        .arg(shape.size())
                        .arg(TensorShapes::shapeText(shape), TensorShapes::acceptedShapes()));
    };
    if (kind == TensorShapes::Kind::Refused)
        return refuse();
    // What is not key biases is read as the table or the stack its dimensions other than 1 make.
    const std::size_t notOne = shape.size() - std::size_t(std::count(shape.begin(), shape.end(), 1));
    const TensorShapes::Kind tableOrStack = notOne <= 2 ? TensorShapes::Kind::Table : TensorShapes::Kind::Stack;
    const bool noKeyBiases = expected.kind != CheckExpect::Expectation::Kind::None
        && !(declared && TensorShapes::readsKeyBiases(*declared));
    // Key biases against --expect-table's are compared cell by cell; a deviation is named as the
    // reference's reading declared would name it (get_slopes(8) per rank where it reads as 32 heads').
    const bool keyBiasesAgainstTable
        = kind == TensorShapes::Kind::KeyBiases && expected.kind == CheckExpect::Expectation::Kind::Table;
    if (kind == TensorShapes::Kind::KeyBiases && noKeyBiases)
        kind = tableOrStack;
    // A vector (inv_freq, slopes) against --expect-table's is compared value by value, as a table
    // is with its reference; its own reading is said where it deviates.
    const bool vectorAgainstTable
        = kind == TensorShapes::Kind::Vector && expected.kind == CheckExpect::Expectation::Kind::Table;
    if (vectorAgainstTable)
        kind = TensorShapes::Kind::Table;
    CheckExpect::Expectation asTable = expected;
    asTable.vector = vectorAgainstTable;
    // A stack against --expect-table's (StackReference).
    StackReference reference;
    if (kind != TensorShapes::Kind::Table && expected.kind == CheckExpect::Expectation::Kind::Table) {
        auto opened = stackReference(*rows, shape, kind, expected, run, err);
        if (const int *code = std::get_if<int>(&opened))
            return *code;
        reference = std::get<StackReference>(std::move(opened));
    }
    const std::shared_ptr<const TableRows> &referenceStack = reference.stack, &referenceEach = reference.each;
    std::optional<TableMatch> match;
    if (kind == TensorShapes::Kind::Vector) {
        const auto values = TensorShapes::readVector(*rows);
        if (const auto *problem = std::get_if<QString>(&values))
            return fail(err, ExitIo, u"%1: %2"_s.arg(rows->name(), *problem));
        TensorShapes::VectorDeclaration vector;
        if (expected.kind == CheckExpect::Expectation::Kind::Family) {
            vector.family = expected.family;
            vector.params = expected.params;
            // A vector of n frequencies is a rotary_dim of 2n where no flag, preset or config gave the
            // width: a width of the default head's is no declaration to call it a rotary-dim mistake.
            const auto &fit = FamilyChecks::of(expected.family).fitTableWidth;
            const auto n = std::int64_t(std::get<std::vector<double>>(values).size());
            if (!expected.widthGiven && fit)
                fit(vector.params, 2 * n);
        }
        vector.heads = heads;
        vector.lengthGiven = expected.lengthGiven || expected.inputs.contains(u"prompt"_s)
            || (expected.given && expected.given->contains(u"prompt"_s));
        match = TensorShapes::checkVector(std::get<std::vector<double>>(values), rows->storedType(), vector);
    }
    if (kind == TensorShapes::Kind::KeyBiases) {
        match = TensorShapes::keyBiases(shape, *rows, heads, declared);
        if (!match)
            kind = tableOrStack;
        else if (headBias && headBias->declaredKeyBiases)
            headBias->declaredKeyBiases(*match, expected.params);
    }
    // A decode step's row a head ([1, H, 1, L]) that no family reads as key biases (CheckFamilyStack).
    if (!match && kind == TensorShapes::Kind::Table && oneQueryRowAHead(shape)) {
        auto step = readDecodeStep(tensor, run, err);
        if (const int *code = std::get_if<int>(&step))
            return *code;
        if ((match = std::get<std::optional<TableMatch>>(std::move(step))))
            kind = TensorShapes::Kind::Stack;
    }
    if (kind == TensorShapes::Kind::Table) {
        auto cache = checkPaired(rows, run, asTable, err);
        if (cache) {
            if (const int *code = std::get_if<int>(&*cache))
                return *code;
            match = std::get<TableMatch>(std::move(*cache));
        }
    }
    if (kind == TensorShapes::Kind::Table && (!match || expected.kind == CheckExpect::Expectation::Kind::None)) {
        const std::optional<CheckExpect::Expectation> wide = halfCache(*rows, expected);
        const bool half = wide.has_value();
        const CheckExpect::Expectation &each = wide ? *wide : asTable;
        const auto table = half ? TensorShapes::widened(rows, expected.family, each.params) : rows;
        auto checked = checkRows(*table, run, each, err);
        if (const int *code = std::get_if<int>(&checked))
            return *code;
        match = match ? PairedTables::betterReading(std::get<TableMatch>(std::move(checked)), std::move(*match))
                      : std::get<TableMatch>(std::move(checked));
        if (half)
            match->notes.prepend(
                u"%1 columns, half the declared table's: read as the frequencies' cos or sin "
                "before they are repeated for both columns of a pair (its columns c and c + %1 "
                "in the report are the file's column c, or 2c and 2c + 1 interleaved)"_s.arg(rows->cols()));
    }
    if (kind == TensorShapes::Kind::Table && match)
        sameRowOfADecodeStep(*match, shape, TensorShapes::notOne(shape), expected);
    if (match && match->verdict == CheckVerdict::Mistake && expected.kind == CheckExpect::Expectation::Kind::Table)
        nameAgainstReference(*match, tensor, run, kind, vectorAgainstTable, keyBiasesAgainstTable);
    // A family's own stack of per-head maps (T5's position_bias), read by the family (CheckFamilyStack).
    if (!match && kind == TensorShapes::Kind::Stack && !referenceStack && !referenceEach)
        match = readFamilyStack(shape, *rows, run);
    if (kind == TensorShapes::Kind::Stack && !match) {
        std::vector<TableMatch> matches;
        // One-row slices are the rows of a table with its dimension of 1 dropped (stackShape).
        const std::vector<std::int64_t> stacked = TensorShapes::stackShape(shape);
        const std::int64_t length = stacked[stacked.size() - 2];
        const auto held = TensorShapes::sliceHeads(headBias, stacked, *rows, heads, !referenceStack && !referenceEach);
        for (std::int64_t i = 0; i < TensorShapes::slices(stacked); ++i) {
            const auto part = TensorShapes::slice(rows, i, length, TensorShapes::sliceLabel(stacked, i));
            CheckExpect::Expectation each = expected;
            if (referenceStack)
                each.tableRows = TensorShapes::slice(referenceStack, i, length, TensorShapes::sliceLabel(stacked, i));
            else if (referenceEach)
                each.tableRows = referenceEach;
            if (headBias)
                headBias->atHead(each.params, held.heads, held.of(i));
            auto checked = checkSlice(part, each,
                                      {[&](const auto &t, const auto &e) { return checkPaired(t, run, e, err); },
                                       [&](const auto &t, const auto &e) { return checkRows(t, run, e, err); }});
            if (const int *code = std::get_if<int>(&checked))
                return *code;
            matches.push_back(std::get<TableMatch>(std::move(checked)));
        }
        // Against a reference table its slices are compared with, not the family's heads.
        match = TensorShapes::combine(stacked, *rows, std::move(matches), !referenceStack && !referenceEach, heads);
        sameRowOfADecodeStep(*match, shape, stacked, expected, rows.get());
        if (referenceStack && match->verdict == CheckVerdict::Mistake)
            nameByReferenceStack(*match, tensor, run);
    }
    return *match;
}

} // namespace posenc::CheckTensor
