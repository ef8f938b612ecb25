#include "CheckCommand.h"

#include "BudgetAdvice.h"
#include "ConfigCheckCommand.h"
#include "ExitCode.h"
#include "Interrupt.h"
#include "ParamOptions.h"
#include "ProgressLine.h"

#include "core/Description.h"
#include "core/MemoryBudget.h"
#include "core/NumberText.h"
#include "core/ParamTable.h"
#include "core/ParamText.h"
#include "core/check/CheckReport.h"
#include "core/check/TableCheck.h"
#include "io/TableFile.h"

#include <QCommandLineParser>

#include <algorithm>
#include <optional>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

using Description::jsonNumber;
using Description::jsonString;

// Exit 1: the table is not correct (a mistake, or nothing the check knows).
constexpr int kExitNotCorrect = 1;

int fail(QTextStream &err, int code, const QString &message)
{
    err << "posenc check: " << message << '\n';
    return code;
}

QString usage()
{
    return u"Usage: posenc check FILE[:TENSOR] [--json] [OPTIONS]\n"
           "Says what a table of positions computes (L x d: a row per position, a column per dimension)\n"
           "and names the mistake in it. FILE is a .npy file, a .safetensors file (TENSOR chooses one of\n"
           "its tensors), or a .csv file without a header (commas, or spaces; '#' lines skipped).\n"
           "Dimensions of size 1 are dropped: (L, 1, d) and (1, L, d) are L x d tables.\n\n"
           "It identifies the table from a few hundred of its rows, then compares every row with the\n"
           "correct table, computed by the kernel of posenc table:\n"
           "  sinusoidal  interleaved or split; the paper's frequencies b^(-2i/d) or fairseq's,\n"
           "              tensor2tensor's and Whisper's b^(-i/(h-1)); any base; an offset of the\n"
           "              positions; values exact, rounded to float16 or bfloat16, or from float32 angles\n"
           "  rope-cos, rope-sin  HF's rotary cos or sin table (L x rotary_dim): half or interleaved;\n"
           "              rope_type and its parameters as far as the table shows them; the attention\n"
           "              factor from the amplitude\n"
           "  learned     anything else with structure: padding rows, the first row a position reads,\n"
           "              neighbouring rows' similarity, the nearest sinusoid\n"
           "A correct table is within the rounding of its stored dtype of a correct reference (float64\n"
           "tables are compared at float32's). The mistakes it names: exponent-column-index,\n"
           "exponent-doubled, sin-cos-swapped, position-divided, position-offset, same-row,\n"
           "half-precision-angles, rope-layout, attention-factor-missing.\n\n"
           "Options:\n"
           "  --json                 one JSON object: verdict, encoding, layout, frequencies, base,\n"
           "                         position_offset, first_position_row, precision, rope_type,\n"
           "                         attention_factor, mistakes, max_abs_error, worst_position (a row),\n"
           "                         worst_column, diagnosis\n"
           "  --layout WORD          the sinusoid's layout the table is meant to have: interleaved|split\n"
           "  --rope-layout WORD     the RoPE layout the table is meant to have: half|interleaved\n"
           "  --position-offset N    the row a learned table's position 0 is read from\n"
           "  --memory-budget GIB    the most memory the check may hold (default 2; a .csv is read whole)\n"
           "  --threads N            worker threads (default: all cores)\n"
           "  --quiet                no progress line (shown on a terminal for work over a second)\n"
           "  -h, --help             show this help\n\n"
           "A layout or offset declared and not found is a mistake. Ctrl+C stops the check (exit 130).\n"
           "Exit codes: 0 correct, 1 a mistake or an unknown table, 2 invalid usage, 3 a file that\n"
           "cannot be read (or holds NaN), 4 over the memory budget, 130 interrupted.\n"_s;
}

template<typename T> QString jsonOrNull(const std::optional<T> &value, QString (*text)(T))
{
    return value ? text(*value) : u"null"_s;
}

QString jsonInteger(std::int64_t value)
{
    return QString::number(value);
}

QString json(const TableMatch &m)
{
    QString layout = u"null"_s;
    if (m.layout)
        layout = jsonString(CheckWords::layout(*m.layout));
    else if (m.ropeLayout)
        layout = jsonString(CheckWords::ropeLayout(*m.ropeLayout));
    QStringList mistakes;
    for (const TableMistake mistake : m.mistakes)
        mistakes.append(jsonString(CheckWords::mistake(mistake)));
    const QString encoding = CheckWords::encoding(m.encoding);
    const QList<std::pair<QString, QString>> entries {
        {u"verdict"_s, jsonString(CheckWords::verdict(m.verdict))},
        {u"encoding"_s, encoding.isEmpty() ? u"null"_s : jsonString(encoding)},
        {u"layout"_s, layout},
        {u"frequencies"_s, m.frequencies ? jsonString(CheckWords::frequencies(*m.frequencies)) : u"null"_s},
        {u"base"_s, jsonOrNull(m.base, jsonNumber)},
        {u"position_offset"_s, jsonOrNull(m.positionOffset, jsonInteger)},
        {u"first_position_row"_s, jsonOrNull(m.firstPositionRow, jsonInteger)},
        {u"precision"_s, m.precision ? jsonString(CheckWords::precision(*m.precision)) : u"null"_s},
        {u"rope_type"_s, m.ropeType ? jsonString(CheckWords::ropeType(*m.ropeType)) : u"null"_s},
        {u"attention_factor"_s, jsonOrNull(m.attentionFactor, jsonNumber)},
        {u"mistakes"_s, u"["_s + mistakes.join(u", "_s) + u"]"_s},
        {u"max_abs_error"_s, jsonOrNull(m.maxAbsError, jsonNumber)},
        {u"worst_position"_s, jsonOrNull(m.worstRow, jsonInteger)},
        {u"worst_column"_s, jsonOrNull(m.worstColumn, jsonInteger)},
        {u"diagnosis"_s, jsonString(m.diagnosis)},
    };
    QStringList parts;
    for (const auto &[key, value] : entries)
        parts.append(u"\"%1\": %2"_s.arg(key, value));
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

} // namespace

int runCheckCommand(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    // `posenc check --config FILE` checks a model's config.json, not a table.
    const bool config = std::any_of(arguments.cbegin(), arguments.cend(), [](const QString &argument) {
        return argument == u"--config"_s || argument.startsWith(u"--config="_s);
    });
    if (config)
        return runConfigCheck(arguments, out, err);
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption jsonOption(u"json"_s, u"Print one JSON object."_s);
    const QCommandLineOption threadsOption(u"threads"_s, u"Worker threads."_s, u"N"_s);
    const QCommandLineOption quietOption(u"quiet"_s, u"No progress line."_s);
    const QCommandLineOption helpOption({u"h"_s, u"help"_s}, u"Show this help."_s);
    parser.addOptions({jsonOption, threadsOption, quietOption, helpOption});
    const QStringList declaredKeys {u"layout"_s, u"rope-layout"_s, u"position-offset"_s, u"memory-budget"_s};
    for (const QString &key : declaredKeys)
        parser.addOption(QCommandLineOption(key, ParamTable::find(key)->helpLine(), ParamTable::find(key)->valueName));
    parser.addPositionalArgument(u"file"_s, u"The table: FILE or FILE:TENSOR."_s);
    if (!parser.parse(arguments))
        return fail(err, ExitUsage, parser.errorText() + u" (see posenc check --help)"_s);
    if (parser.isSet(helpOption)) {
        out << usage() << '\n' << configCheckHelp();
        return ExitDone;
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1)
        return fail(err, ExitUsage,
                    u"expected one FILE[:TENSOR], a table to check; got %1 (see posenc check --help)"_s.arg(
                        positional.isEmpty() ? u"none"_s : positional.join(u' ')));
    Params declared;
    for (const QString &key : declaredKeys) {
        if (const auto error = declare(declared, parser, key))
            return fail(err, ExitUsage, ParamOptions::flagText(*error));
    }
    int threads = 0;
    if (parser.isSet(threadsOption)) {
        bool ok = false;
        threads = parser.value(threadsOption).toInt(&ok);
        if (!ok || threads < 1 || threads > 1024)
            return fail(err, ExitUsage,
                        u"--threads: must be an integer in [1, 1024]; got '%1'"_s.arg(parser.value(threadsOption)));
    }
    TableCheck::Declared declaration;
    if (parser.isSet(u"layout"_s))
        declaration.layout = declared.sinusoidal.layout;
    if (parser.isSet(u"rope-layout"_s))
        declaration.ropeLayout = declared.rope.layout;
    if (parser.isSet(u"position-offset"_s))
        declaration.firstPositionRow = declared.learned.offset;
    const std::uint64_t budget = declared.memoryBudget;

    const InterruptCancels interrupt;
    const MatrixSource source = MatrixSource::parse(positional.first());
    const auto opened = TableFile::open(source, budget, interrupt.flag());
    if (interrupt.interrupted())
        return fail(err, ExitInterrupted, u"interrupted"_s);
    if (!opened) {
        if (opened.error().kind == ReadError::Kind::OverBudget)
            return fail(err, ExitOverBudget,
                        opened.error().toString()
                            + overBudgetAdvice(u"check fewer rows (a .npy file is read a chunk at a time)"_s, budget));
        return fail(err, ExitIo, opened.error().toString());
    }
    const TableRows &table = *opened.value();

    TableCheck::StreamOptions stream;
    stream.threads = threads;
    stream.cancel = interrupt.flag();
    if (const auto refused = TableCheck::fitToBudget(table, budget, stream))
        return fail(err, ExitOverBudget, *refused + overBudgetAdvice(u"check a narrower table"_s, budget));

    auto identified = TableCheck::identify(table, declaration);
    if (const auto *problem = std::get_if<QString>(&identified))
        return fail(err, ExitIo, u"%1: %2"_s.arg(table.name(), *problem));
    TableMatch match = std::get<TableMatch>(std::move(identified));

    ProgressLine line(u"posenc check"_s, !parser.isSet(quietOption) && ProgressLine::stderrIsTerminal());
    WorkProgress progress;
    stream.progress = &progress;
    line.stage(u"comparing the rows of %1"_s.arg(table.name()), &progress);
    const TableCheck::Verification verification = TableCheck::verify(match, table, stream);
    line.finish();
    if (verification.cancelled || interrupt.interrupted())
        return fail(err, ExitInterrupted, u"interrupted"_s);
    if (verification.error)
        return fail(err, ExitIo, u"%1: %2"_s.arg(table.name(), *verification.error));
    TableCheck::conclude(match, verification);

    out << (parser.isSet(jsonOption) ? json(match) : CheckReport::tableLines(match, table).join(u'\n') + u'\n');
    return match.verdict == CheckVerdict::Correct ? ExitDone : kExitNotCorrect;
}

} // namespace posenc
