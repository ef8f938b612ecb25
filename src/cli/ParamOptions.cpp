#include "ParamOptions.h"

#include "EmbeddingOptions.h"
#include "ExitCode.h"

#include "core/ParamText.h"

using namespace Qt::StringLiterals;

namespace posenc::ParamOptions {

namespace {

// --eval is a switch on the command line and a true/false value in a session file.
const QString kEvalKey = u"eval"_s;

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
    for (const ParamError &e : errors)
        lines.append(e.toString());
    for (const QString &line : {fileError, overBudget}) {
        if (!line.isEmpty())
            lines.append(line);
    }
    return lines;
}

Result read(const QCommandLineParser &parser)
{
    Result result;
    for (const QString &key : ParamText::valueKeys()) {
        if (!parser.isSet(key))
            continue;
        const QString text = key == kEvalKey ? u"true"_s : parser.values(key).constLast();
        if (auto error = ParamText::set(result.params, key, text))
            result.errors.append(*error);
    }
    if (result.errors.isEmpty())
        EmbeddingOptions::read(parser, result);
    if (result.exitCode() == ExitDone)
        result.errors = result.params.validate();
    return result;
}

QString helpText()
{
    QString text;
    for (const QString &key : ParamText::valueKeys()) {
        const QString flag = key == kEvalKey ? u"--%1"_s.arg(key) : u"--%1 %2"_s.arg(key, ParamText::valueName(key));
        text += u"  %1\n      %2\n"_s.arg(flag, ParamText::describe(key));
    }
    return text + EmbeddingOptions::helpText();
}

} // namespace posenc::ParamOptions
