#include "ParamOptions.h"

#include "EmbeddingOptions.h"
#include "ExitCode.h"
#include "PositionTableOptions.h"

#include "core/ParamTable.h"
#include "core/ParamText.h"

using namespace Qt::StringLiterals;

namespace posenc::ParamOptions {

namespace {

const QString kSessionKey = u"session"_s;

} // namespace

void add(QCommandLineParser &parser)
{
    for (const QString &key : ParamTable::flagKeys()) {
        const ParamSpec &row = *ParamTable::find(key);
        if (row.kind == ParamKind::Switch)
            parser.addOption(QCommandLineOption(key, row.helpLine()));
        else
            parser.addOption(QCommandLineOption(key, row.helpLine(), row.valueName));
    }
    parser.addOption(QCommandLineOption(
        kSessionKey, u"parameters from a saved session; parameter flags override them"_s, u"FILE"_s));
}

int Result::exitCode() const
{
    if (!errors.isEmpty())
        return ExitUsage;
    if (!fileError.isEmpty())
        return ExitIo;
    if (!overBudget.isEmpty())
        return ExitOverBudget;
    return ExitDone;
}

QStringList Result::messages() const
{
    QStringList lines;
    for (const ParamError &e : errors) {
        // A message names the session for the values that came from it.
        const bool inSession = fromSession.contains(e.key);
        lines.append(flagText(e) + (inSession ? u" (in %1)"_s.arg(sessionPath) : QString()));
    }
    for (const QString &line : {fileError, overBudget}) {
        if (!line.isEmpty())
            lines.append(line);
    }
    return lines;
}

Result read(const QCommandLineParser &parser)
{
    Given given;
    std::optional<Session> session;
    QString sessionPath;
    if (parser.isSet(kSessionKey)) {
        sessionPath = parser.values(kSessionKey).constLast();
        auto loaded = readSession(sessionPath);
        if (const auto *error = std::get_if<SessionError>(&loaded)) {
            Result result;
            result.fileError = error->toString();
            return result;
        }
        session = std::get<Session>(std::move(loaded));
        given = session->params;
    }
    QStringList fromFlags;
    for (const QString &key : Session::parameterKeys()) {
        if (!parser.isSet(key))
            continue;
        const bool isSwitch = ParamTable::find(key)->kind == ParamKind::Switch;
        given.insert(key, isSwitch ? u"true"_s : parser.values(key).constLast());
        fromFlags.append(key);
    }
    Result result = read(given);
    if (session) {
        result.sessionPath = sessionPath;
        for (const QString &key : session->params.keys()) {
            if (!fromFlags.contains(key))
                result.fromSession.append(key);
        }
    }
    result.session = std::move(session);
    return result;
}

Result read(const Given &given)
{
    Result result;
    for (const QString &key : ParamText::valueKeys()) {
        const auto text = given.constFind(key);
        if (text == given.cend())
            continue;
        if (auto error = ParamText::set(result.params, key, *text))
            result.errors.append(*error);
    }
    if (result.errors.isEmpty())
        EmbeddingOptions::read(given, result);
    if (result.exitCode() == ExitDone)
        PositionTableOptions::read(given, result);
    if (result.exitCode() == ExitDone)
        result.errors = result.params.validate();
    return result;
}

QString flagText(const ParamError &error)
{
    return u"--%1: %2"_s.arg(error.key, error.sentence());
}

QString helpText()
{
    QString text;
    for (const QString &key : ParamTable::flagKeys()) {
        const ParamSpec &row = *ParamTable::find(key);
        text += u"  %1\n      %2\n"_s.arg(row.flag(), row.helpLine());
    }
    return text + u"  --session FILE\n      parameters from a saved session; parameter flags override them\n"_s;
}

} // namespace posenc::ParamOptions
