#include "ParamOptions.h"

#include "EmbeddingOptions.h"
#include "ExitCode.h"

#include "core/ParamText.h"

using namespace Qt::StringLiterals;

namespace posenc::ParamOptions {

namespace {

// --eval is a switch on the command line and a true/false value in a session file.
const QString kEvalKey = u"eval"_s;
const QString kSessionKey = u"session"_s;

} // namespace

void add(QCommandLineParser &parser)
{
    for (const QString &key : ParamText::valueKeys()) {
        if (key == kEvalKey)
            parser.addOption(QCommandLineOption(key, ParamText::describe(key)));
        else
            parser.addOption(QCommandLineOption(key, ParamText::describe(key), ParamText::valueName(key)));
    }
    EmbeddingOptions::add(parser);
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
        // A message names the session or lesson for the values that came from it.
        const bool fromBase = fromOrigin.contains(e.key);
        lines.append(flagText(e) + (fromBase ? u" (in %1)"_s.arg(origin) : QString()));
    }
    for (const QString &line : {fileError, overBudget}) {
        if (!line.isEmpty())
            lines.append(line);
    }
    return lines;
}

Result read(const QCommandLineParser &parser)
{
    if (!parser.isSet(kSessionKey))
        return read(parser, {}, {});
    const QString path = parser.values(kSessionKey).constLast();
    auto loaded = readSession(path);
    if (const auto *error = std::get_if<SessionError>(&loaded)) {
        Result result;
        result.fileError = error->toString();
        return result;
    }
    Session session = std::get<Session>(std::move(loaded));
    Result result = read(parser, session.params, path);
    result.session = std::move(session);
    return result;
}

Result read(const QCommandLineParser &parser, const Given &base, const QString &origin)
{
    Given given = base;
    QStringList fromFlags;
    for (const QString &key : Session::parameterKeys()) {
        if (!parser.isSet(key))
            continue;
        given.insert(key, key == kEvalKey ? u"true"_s : parser.values(key).constLast());
        fromFlags.append(key);
    }
    Result result = read(given);
    result.origin = origin;
    for (const QString &key : base.keys()) {
        if (!fromFlags.contains(key))
            result.fromOrigin.append(key);
    }
    return result;
}

Result read(const Given &given)
{
    Result result;
    result.errors = ParamOverlay::set(result.params, given);
    if (result.errors.isEmpty())
        EmbeddingOptions::read(given, result);
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
    for (const QString &key : ParamText::valueKeys()) {
        const QString flag = key == kEvalKey ? u"--%1"_s.arg(key) : u"--%1 %2"_s.arg(key, ParamText::valueName(key));
        text += u"  %1\n      %2\n"_s.arg(flag, ParamText::describe(key));
    }
    return text + EmbeddingOptions::helpText()
        + u"  --session FILE\n      parameters from a saved session; parameter flags override them\n"_s;
}

} // namespace posenc::ParamOptions
