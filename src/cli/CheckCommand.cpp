#include "CheckCommand.h"

#include "BudgetAdvice.h"
#include "CheckApply.h"
#include "CheckCommonOptions.h"
#include "CheckExpect.h"
#include "CheckIdsDeclared.h"
#include "CheckPositions.h"
#include "CheckSlicesAtIds.h"
#include "CheckTensor.h"
#include "Cli.h"
#include "ConfigCheckCommand.h"
#include "ExitCode.h"
#include "HelpText.h"
#include "Interrupt.h"
#include "JsonOutput.h"
#include "ParamOptions.h"
#include "PositionIdsCheckCommand.h"
#include "ProgressLine.h"

#include "check/CheckReport.h"
#include "check/DeclaredReading.h"
#include "check/FamilyCheck.h"
#include "check/GuessedReading.h"
#include "check/TableAgainstTable.h"
#include "check/TableCheck.h"
#include "check/TensorShapes.h"
#include "check/VerdictNames.h"
#include "core/Description.h"
#include "core/FamilySpec.h"
#include "core/MemoryBudget.h"
#include "core/NumberText.h"
#include "core/OneLine.h"
#include "core/ParamTable.h"
#include "core/ParamText.h"
#include "core/ThreadPools.h"
#include "io/TableFile.h"

#include <QCommandLineParser>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <optional>
#include <variant>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

using Description::jsonNumber;
using Description::jsonString;

// Each verdict its own exit code, 0 for correct alone, so that a test suite can assert with
// posenc check; 2, 3, 4 and 130 are every command's (ExitCode.h).
int verdictExitCode(CheckVerdict verdict)
{
    switch (verdict) {
    case CheckVerdict::Correct:
        return ExitDone;
    case CheckVerdict::Mistake:
        return 1;
    case CheckVerdict::Variant:
        return 5;
    case CheckVerdict::Learned:
        return 6;
    case CheckVerdict::Unknown:
        break;
    }
    return 7;
}

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

// The parameters a table's check reads: what the table is meant to be (each family's), and the
// memory it may hold.
QStringList declaredKeys()
{
    return TableCheck::declarableKeys() + QStringList {u"memory-budget"_s};
}

template<typename T> QString jsonOrNull(const std::optional<T> &value, QString (*text)(T))
{
    return value ? text(*value) : u"null"_s;
}

QString jsonInteger(std::int64_t value)
{
    return QString::number(value);
}

QString jsonValue(const MatchValue &value)
{
    if (const auto *word = std::get_if<QString>(&value))
        return jsonString(*word);
    if (const auto *number = std::get_if<double>(&value))
        return jsonNumber(*number);
    if (const auto *integer = std::get_if<std::int64_t>(&value))
        return jsonInteger(*integer);
    if (const auto *flag = std::get_if<bool>(&value))
        return *flag ? u"true"_s : u"false"_s;
    return u"null"_s;
}

// The window of positions the rows were read at: {"first", "last", "declared", "queries", "note": where
// more than one window reads, which was read and that the check cannot tell which was meant}, or null.
QString positionsJson(const std::optional<PositionWindow> &w)
{
    if (!w)
        return u"null"_s;
    return u"{\"first\": %1, \"last\": %2, \"declared\": %3, \"queries\": %4, \"note\": %5}"_s.arg(w->first)
        .arg(w->last)
        .arg(w->declared ? u"true"_s : u"false"_s, w->queries ? u"true"_s : u"false"_s,
             w->ambiguity.isEmpty() ? u"null"_s : jsonString(w->ambiguity));
}

// One object: the verdict, the family and its table, every family's finding keys (null where the
// matched family has none), the position, the mistakes, the stream's worst cell, the diagnosis.
QString json(const TableMatch &m)
{
    QList<std::pair<QString, QString>> entries {
        {u"verdict"_s, jsonString(CheckWords::verdict(m.verdict))},
        {u"family"_s, m.family ? jsonString(Families::word(*m.family)) : u"null"_s},
        {u"encoding"_s, m.table.isEmpty() ? u"null"_s : jsonString(m.table)},
    };
    for (const QString &key : TableCheck::findingKeys())
        entries.append({key, jsonValue(m.finding(key))});
    entries.append({
        {u"position_offset"_s, jsonOrNull(m.positionOffset, jsonInteger)},
        {u"first_position_row"_s, jsonOrNull(m.firstPositionRow, jsonInteger)},
        {u"positions"_s, positionsJson(m.positions)},
        {u"precision"_s, m.precision ? jsonString(CheckWords::precision(*m.precision, m.rounding)) : u"null"_s},
        {u"max_abs_error"_s, jsonOrNull(m.maxAbsError, jsonNumber)},
        {u"worst_position"_s, jsonOrNull(m.worstRow, jsonInteger)},
        {u"worst_column"_s, jsonOrNull(m.worstColumn, jsonInteger)},
        {u"diagnosis"_s, jsonString(m.diagnosis)},
    });
    QStringList parts {JsonOutput::head(u"check"_s, JsonOutput::kCheckVersion)};
    for (const auto &[key, value] : entries) {
        parts.append(u"\"%1\": %2"_s.arg(key, value));
        if (key == u"precision"_s) // the names a verdict carries, a mistake's or a guess's
            parts.append(CheckWords::mistakesJson(m.verdict, m.mistakes));
    }
    return u"{"_s + parts.join(u", "_s) + u"}\n"_s;
}

// A declared parameter, read and checked by its row as every parameter flag is.
std::optional<ParamError> declare(Params &params, const QCommandLineParser &parser, const QString &key)
{
    if (!parser.isSet(key))
        return std::nullopt;
    if (auto error = ParamText::set(params, key, parser.value(key)))
        return error;
    return ParamTable::find(key)->check(params);
}

// A declared family's heads (--heads, --sandwich-heads, --kerple-heads, or a preset's or a
// config's: MPT-7B's n_heads 32): its stack's slices are those heads', not the stack's count of
// them, and a shape's reading of fewer heads repeated per batch does not override them.
std::optional<std::int64_t> declaredHeads(const QCommandLineParser &parser, const CheckExpect::Expectation &expected,
                                          const Params &declared)
{
    const auto &declaredBias = expected.kind == CheckExpect::Expectation::Kind::Family
        ? FamilyChecks::of(expected.family).tensors.headBias
        : std::nullopt;
    const auto isHeads = [](const QString &key) { return key == u"heads"_s || key.endsWith(u"-heads"_s); };
    const QStringList optionsGiven = parser.optionNames();
    const QStringList fromOrigin = expected.given.value_or(QStringList());
    const bool fromConfig = !expected.source.isEmpty() && !expected.given;
    const bool headsDeclared = fromConfig || std::any_of(optionsGiven.cbegin(), optionsGiven.cend(), isHeads)
        || std::any_of(fromOrigin.cbegin(), fromOrigin.cend(), isHeads);
    if (declaredBias && headsDeclared)
        return declaredBias->heads(expected.params);
    if (parser.isSet(u"heads"_s))
        return TensorShapes::flagHeads(declared);
    return std::nullopt;
}

// Rows at ids from F > 0 read undeclared by a family whose reading starts at position 0 (a learned
// table's row r read as position r): its verdict says nothing of rows at F + r, so it is unknown, said.
void laterPositionsUnread(TableMatch &match, std::int64_t first)
{
    if (first <= 0 || !match.family || FamilyChecks::of(*match.family).tensors.readsLaterPositions
        || match.verdict == CheckVerdict::Unknown)
        return;
    match.notes.prepend(match.diagnosis);
    match.diagnosis
        = u"the rows' --position-ids start at %1, and %2's reading starts at position 0: it says "
          "nothing of rows at positions %1 on, so no verdict is given (its reading in the note)"_s.arg(first)
              .arg(Families::word(*match.family));
    match.verdict = CheckVerdict::Unknown;
    match.mistakes.clear();
    match.correctAgainst.clear();
}

} // namespace

QList<CommandOption> tableCheckOptions()
{
    QList<CommandOption> options {
        {{u"json"_s},
         {},
         u"one JSON object: format, version, verdict, family, encoding, each family's findings (%1; null where "
         "the table's family has none), position_offset, first_position_row, positions (first, last, declared, "
         "queries, note: the window the rows were read at, or null), precision, mistakes (the mistakes a mistake "
         "verdict names; empty on any other verdict), guessed_mistakes (what another verdict guesses the table may "
         "hold, a guess and no finding), max_abs_error, worst_position (a row), worst_column, diagnosis; version 2 "
         "since mistakes holds a mistake verdict's names alone"_s.arg(TableCheck::findingKeys().join(u", "_s))}};
    const QList<CommandOption> parameters = ParamOptions::options();
    for (const QString &key : declaredKeys()) {
        for (const CommandOption &option : parameters) {
            if (option.names.constFirst() == key)
                options.append(option);
        }
    }
    QStringList shown = declaredKeys();
    for (const CommandOption &option : options)
        shown.append(option.names);
    options += CheckExpect::options(shown);
    options.append(CheckApply::option());
    options.append(CheckApply::headsOption());
    options.append(PositionIdsCheckCommand::option());
    options.append(CheckPositions::option());
    options += CheckCommonOptions::options();
    options.append(CommandOptions::help());
    return options;
}

QList<CommandOption> checkOptions()
{
    QList<CommandOption> options = tableCheckOptions();
    for (const CommandOption &option : configCheckOptions()) {
        const bool known = std::any_of(options.cbegin(), options.cend(),
                                       [&](const CommandOption &o) { return o.names == option.names; });
        if (!known)
            options.append(option);
    }
    return options;
}

QStringList configFileAsFlag(const QStringList &arguments, qsizetype first)
{
    // --name or -name (the parsers read -name as --name: QCommandLineParser::ParseAsLongOptions),
    // alone or with "=value".
    const auto given = [&](const QString &name) {
        return std::any_of(arguments.cbegin() + first, arguments.cend(), [&](const QString &argument) {
            const QString spelled = argument.startsWith(u"--"_s) ? argument.mid(2) : argument.mid(1);
            return argument.startsWith(u'-') && (spelled == name || spelled.startsWith(name + u'='));
        });
    };
    if (given(u"config"_s) || given(u"apply"_s) || given(u"position-ids"_s))
        return arguments;
    // The words that are no option's value: an option written apart from its value (--expect-config
    // FILE) takes the word after it; after "--" every word is one.
    QList<qsizetype> positional;
    qsizetype end = -1; // the index of "--"
    for (qsizetype i = first; i < arguments.size(); ++i) {
        if (end < 0 && arguments[i] == u"--"_s)
            end = i;
        else if (end < 0 && takesNextAsValue(arguments[i]))
            ++i;
        else if (end >= 0 || !arguments[i].startsWith(u'-') || arguments[i] == u"-"_s)
            positional.append(i);
    }
    if (positional.size() != 1 || !arguments[positional.constFirst()].endsWith(u".json"_s, Qt::CaseInsensitive))
        return arguments;
    QStringList asFlag = arguments;
    asFlag.insert(positional.constFirst(), u"--config"_s);
    if (end >= 0)
        asFlag.removeAt(end); // "-- FILE.json": FILE is --config's value, a word after -- none
    return asFlag;
}

namespace {

// `posenc check --apply X Y`: a rotation, its positions given by --position-ids, not --positions.
int runApply(const QCommandLineParser &parser, const QStringList &positional, const Params &declared,
             QTextStream &out, QTextStream &err)
{
    if (parser.isSet(CheckPositions::kKey))
        return fail(err, ExitUsage, u"--positions: the positions of a table FILE's rows; with --apply X Y, "
                                    "--position-ids IDS.npy gives a head's"_s);
    CheckApply::Request request;
    request.x = parser.value(u"apply"_s);
    request.positional = positional;
    request.budget = declared.memoryBudget;
    request.declared = declared;
    request.json = parser.isSet(u"json"_s);
    request.exitCode = verdictExitCode;
    request.parser = &parser;
    const auto threads = CheckCommonOptions::threads(parser);
    if (const auto *refused = std::get_if<QString>(&threads))
        return fail(err, ExitUsage, *refused);
    request.threads = std::get<int>(threads);
    return CheckApply::run(request, out, err);
}

// The table --position-ids are given for, as CheckIdsDeclared reads them: M-RoPE declared or not.
CheckIdsDeclared::Table idsTable(const TableFile::Tensor &tensor, const CheckExpect::Expectation &expected)
{
    return {tensor.rows->rows(), tensor.shape, expected.declares(Encoding::Mrope)};
}

// Rows from a later position (a chunk, a cached step) are read where the family's reading starts
// there (TensorReading::readsLaterPositions), declared or found undeclared; a declared family whose
// reference starts at 0 would call a table at positions 1000.. a false mistake: refused, as before
// (an undeclared reading of such a family is made unknown after the check).
std::optional<QString> laterIdsRefused(const CheckExpect::Expectation &expected, std::int64_t first)
{
    if (first <= 0 || expected.kind != CheckExpect::Expectation::Kind::Family
        || FamilyChecks::of(expected.family).tensors.readsLaterPositions)
        return std::nullopt;
    QStringList readers;
    for (const FamilySpec &family : Families::all()) {
        if (FamilyChecks::of(family.encoding).tensors.readsLaterPositions)
            readers.append(Families::word(family.encoding));
    }
    return u"--position-ids: the ids start at %1; rows from a position past 0 are read by the readings of %2 only "
           "(undeclared, or --expect of one of them, its --preset or --expect-config); otherwise the ids are whole "
           "numbers from 0"_s.arg(first)
        .arg(readers.join(u", "_s));
}

} // namespace

namespace {

// The flags only --apply reads, or that it cannot read (--pe-scale), refused in one line.
std::optional<QString> applyFlagsRefused(const QCommandLineParser &parser)
{
    if (parser.isSet(u"apply-heads"_s) && !parser.isSet(u"apply"_s))
        return u"--apply-heads: X's count of heads, read only with --apply X Y"_s;
    if (parser.isSet(u"apply"_s) && parser.isSet(u"pe-scale"_s))
        return CheckExpect::kPeScaleWithApply;
    return std::nullopt;
}

// The parameters declared and the keys of those a table's check reads without --expect.
TableCheck::Declared declarationOf(const QCommandLineParser &parser, const Params &declared)
{
    TableCheck::Declared declaration;
    declaration.params = declared;
    for (const QString &key : TableCheck::declarableKeys()) {
        if (parser.isSet(key))
            declaration.keys.append(key);
    }
    return declaration;
}

} // namespace

int runCheckCommand(const QStringList &asGiven, QTextStream &out, QTextStream &err)
{
    // `posenc check FILE.json` is `posenc check --config FILE.json`.
    const QStringList arguments = configFileAsFlag(asGiven, 1);
    // `posenc check --config FILE` checks a model's config.json, not a table.
    // With --apply, --config gives the model whose rotation Y is meant to be.
    const auto given = [&](const QString &flag) {
        return std::any_of(arguments.cbegin(), arguments.cend(), [&](const QString &argument) {
            return argument == flag || argument.startsWith(flag + u'=');
        });
    };
    // With --position-ids, --config gives the model whose ids they are meant to be, as --preset does.
    if (given(u"--config"_s) && !given(u"--apply"_s) && !PositionIdsCheckCommand::requested(arguments))
        return runConfigCheck(arguments, out, err);
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    CommandOptions::add(parser, tableCheckOptions());
    parser.addPositionalArgument(u"file"_s, u"The table: FILE or FILE:TENSOR."_s);
    const bool parsed = parser.parse(arguments);
    // `posenc check --position-ids IDS.npy` checks a batch's position ids; with a table FILE, they
    // give its rows' positions.
    if (PositionIdsCheckCommand::requested(arguments) && (!parsed || parser.positionalArguments().isEmpty()))
        return PositionIdsCheckCommand::run(arguments, out, err);
    if (!parsed)
        return fail(err, ExitUsage, oneLine(parser.errorText()) + u" (see posenc check --help)"_s);
    if (parser.isSet(u"help"_s)) {
        out << HelpText::render(checkHelp(), HelpText::width());
        return ExitDone;
    }
    const QStringList positional = parser.positionalArguments();
    Params declared;
    for (const QString &key : declaredKeys()) {
        if (const auto error = declare(declared, parser, key))
            return fail(err, ExitUsage, ParamOptions::flagText(*error));
    }
    if (const std::optional<QString> refused = applyFlagsRefused(parser))
        return fail(err, ExitUsage, *refused);
    if (parser.isSet(u"apply"_s))
        return runApply(parser, positional, declared, out, err);
    if (positional.size() != 1)
        return fail(err, ExitUsage,
                    u"expected one FILE[:TENSOR], a table to check; got %1 (see posenc check --help)"_s.arg(
                        positional.isEmpty() ? u"none"_s : positional.join(u' ')));
    const auto threadsGiven = CheckCommonOptions::threads(parser);
    if (const auto *refused = std::get_if<QString>(&threadsGiven))
        return fail(err, ExitUsage, *refused);
    const int threads = std::get<int>(threadsGiven);
    // The identify step's searches ask for no count of their own (M-RoPE's split): --threads' too.
    const ThreadsScope identifyThreads(threads);
    TableCheck::Declared declaration = declarationOf(parser, declared);
    const std::uint64_t budget = declared.memoryBudget;
    auto expectation = CheckExpect::read(parser, declaredKeys());
    if (const auto *refused = std::get_if<CheckExpect::Refusal>(&expectation))
        return failLines(err, *refused);
    auto &expected = std::get<CheckExpect::Expectation>(expectation);
    const auto badScale = CheckExpect::declareAmplitude(parser, declaration, expected);
    const auto badForm = CheckExpect::declareMapForm(parser, expected);
    const auto window = CheckPositions::declare(parser, declaration, expected);
    if (const QString *refused = badScale ? &*badScale : badForm ? &*badForm : std::get_if<QString>(&window))
        return fail(err, ExitUsage, *refused);
    const auto positions = std::get<0>(window);
    const InterruptCancels interrupt;
    const MatrixSource source = MatrixSource::parse(positional.first());
    const auto opened = TableFile::openTensor(source, budget, interrupt.flag());
    if (interrupt.interrupted())
        return fail(err, ExitInterrupted, u"interrupted"_s);
    if (!opened) {
        if (opened.error().kind == ReadError::Kind::OverBudget)
            return fail(err, ExitOverBudget,
                        opened.error().toString()
                            + overBudgetAdvice(u"check fewer rows (a .npy file is read a chunk at a time)"_s, budget));
        return fail(err, exitCodeOf(opened.error()), opened.error().toString());
    }
    TableFile::Tensor tensor = opened.value();
    // An array with a dimension of 0 holds no table, whatever its shape reads as (a map of no
    // images, a stack of no heads): refused as a table of no rows is.
    if (const auto zero = std::find(tensor.shape.begin(), tensor.shape.end(), 0); zero != tensor.shape.end()) {
        const bool columns = zero + 1 == tensor.shape.end();
        return fail(err, ExitIo,
                    u"%1: the array has no cells, shape %2 has %3; a table of positions is L x d with L, d >= 1"_s.arg(
                        tensor.rows->name(), TensorShapes::shapeText(tensor.shape),
                        columns ? u"no columns"_s : u"0 at dimension %1"_s.arg(zero - tensor.shape.begin())));
    }
    if (const QString refused = CheckPositions::refusal(positions, tensor, expected); !refused.isEmpty())
        return fail(err, ExitUsage, refused);
    const auto typedNote = CheckExpect::amplitudeAsTyped(*tensor.rows, declaration, expected, interrupt.flag());
    const std::optional<std::int64_t> heads = declaredHeads(parser, expected, declared);
    const CheckTensor::Run run {expected, declaration, budget, threads, interrupt, parser.isSet(u"quiet"_s), heads};
    std::optional<RowsAtPositions::Layout> atIds;
    // Ids of every slice of a stack (M-RoPE's [3, B, L] for a [3, B, L, D] cache), or a declared
    // M-RoPE's prompt's.
    if (auto sliced = CheckSlicesAtIds::check(tensor, parser.value(u"position-ids"_s), run, err)) {
        if (const int *code = std::get_if<int>(&*sliced))
            return *code;
        TableMatch match = std::get<TableMatch>(*sliced);
        GuessedReading::cap({match.verdict, match.mistakes, match.diagnosis, match.notes}, expected.configSources,
                            expected.configPath);
        if (const auto refused = CheckExpect::amplitudeUnread(match, expected, tensor.rows->name(), typedNote))
            return fail(err, ExitUsage, *refused);
        out << (parser.isSet(u"json"_s) ? json(match)
                                        : CheckReport::tableLines(match, *tensor.rows).join(u'\n') + u'\n');
        return verdictExitCode(match.verdict);
    }
    if (parser.isSet(u"position-ids"_s)) {
        // M-RoPE's [3, L] ids stand for their prompt, a grid's [L, 2] for --grid: checked as declared so.
        // A declared Qwen2.5-VL's videos: their t steps are their second_per_grid's.
        const bool qwen25 = expected.kind == CheckExpect::Expectation::Kind::Family
            && expected.params.encoding == Encoding::Mrope && expected.params.mrope.vision == MropeVision::Qwen25Vl;
        std::shared_ptr<const QTemporaryDir> held; // the positions a grid's ids stand for, while checked
        if (auto declaredBy = CheckIdsDeclared::rewrite(
                arguments, parser.value(u"position-ids"_s), idsTable(tensor, expected), budget, err,
                qwen25 ? std::optional<double>(expected.params.mrope.tokensPerSecond) : std::nullopt, &held)) {
            if (const int *code = std::get_if<int>(&*declaredBy))
                return *code;
            return runCheckCommand(std::get<QStringList>(*declaredBy), out, err);
        }
        auto laid
            = PositionIdsCheckCommand::readLayout(parser.value(u"position-ids"_s), tensor.rows->rows(), budget, err);
        if (const int *code = std::get_if<int>(&laid))
            return *code;
        atIds = std::get<RowsAtPositions::Layout>(std::move(laid));
        if (const auto refused = laterIdsRefused(expected, atIds->first))
            return fail(err, ExitUsage, *refused);
        declaration.firstPosition = expected.firstPosition = atIds->first;
        declaration.positionsDeclared = expected.positionsDeclared = true;
        tensor.rows = RowsAtPositions::byPosition(tensor.rows, *atIds);
        tensor.shape = {tensor.rows->rows(), tensor.rows->cols()};
    }
    auto checked = CheckTensor::check(tensor, run, err);
    if (const int *code = std::get_if<int>(&checked))
        return *code;
    TableMatch match = std::get<TableMatch>(std::move(checked));
    if (const QString refused = CheckPositions::say(match, positions, tensor.rows->name()); !refused.isEmpty())
        return fail(err, ExitUsage, refused);
    const TableRows &table = *tensor.rows;
    if (atIds) {
        if (const int code = PositionIdsCheckCommand::compareRows(match, *opened->rows, *atIds, interrupt.flag(), err))
            return code;
        CheckIdsDeclared::threeSlicesOrAxes(match, parser.value(u"position-ids"_s), idsTable(opened.value(), expected),
                                            expected.kind != CheckExpect::Expectation::Kind::None, budget);
        laterPositionsUnread(match, atIds->first);
    }
    // A reference read from a config by guess decides no verdict its guessed numbers rest on.
    GuessedReading::cap({match.verdict, match.mistakes, match.diagnosis, match.notes}, expected.configSources,
                        expected.configPath);
    if (const auto refused = CheckExpect::amplitudeUnread(match, expected, table.name(), typedNote))
        return fail(err, ExitUsage, *refused);
    out << (parser.isSet(u"json"_s) ? json(match) : CheckReport::tableLines(match, table).join(u'\n') + u'\n');
    return verdictExitCode(match.verdict);
}

} // namespace posenc
