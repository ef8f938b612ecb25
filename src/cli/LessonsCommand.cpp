#include "LessonsCommand.h"

#include "ExitCode.h"
#include "HelpText.h"
#include "JsonOutput.h"
#include "LessonOptions.h"
#include "ParamOptions.h"

#include "check/models/LayerLessonNumbers.h"
#include "core/LessonNumbers.h"
#include "core/OneLine.h"
#include "core/ParamError.h"
#include "io/Lesson.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

int list(QTextStream &out, QTextStream &err)
{
    // A lesson that does not read is a mistake of the build, said rather than hidden.
    for (const SessionError &error : Lessons::errors())
        err << "posenc lessons: " << error.toString() << '\n';
    for (const Lesson &lesson : Lessons::all())
        out << lesson.name << '\t' << lesson.title << '\n';
    return Lessons::errors().isEmpty() ? ExitDone : ExitIo;
}

QString indented(const QString &code)
{
    QStringList lines = code.split(u'\n');
    for (QString &line : lines)
        line.prepend(u"    "_s);
    return lines.join(u'\n');
}

// The lesson's text as the window's panel shows it, in plain text.
QString plainText(const Lesson &lesson, const LessonModel &model, const LessonText::Rendered &text)
{
    QStringList parts {lesson.title, lesson.question};
    // The code the model's facts choose (LessonCode), as the window's panel shows it.
    if (const QString code = lesson.code.forModel(model); !code.isEmpty())
        parts.append(u"The code in question:\n"_s + indented(code));
    QStringList items;
    const qsizetype listed = text.items.size() - (lesson.text.note.isEmpty() ? 0 : 1);
    for (qsizetype i = 0; i < text.items.size(); ++i) {
        const QString line = LessonText::plain(text.items[i]);
        items.append(i < listed ? u"- "_s + line : u"\n"_s + line);
    }
    parts.append(items.join(u'\n'));
    return parts.join(u"\n\n"_s) + u'\n';
}

QJsonObject jsonText(const Lesson &lesson, const LessonModel &model, const LessonText::Rendered &text)
{
    QJsonObject object;
    JsonOutput::stamp(object, u"lessons"_s);
    object[u"lesson"_s] = lesson.name;
    object[u"title"_s] = lesson.title;
    object[u"question"_s] = lesson.question;
    object[u"model"_s] = model.name.isEmpty() ? QJsonValue() : QJsonValue(model.name);
    object[u"config"_s] = model.configName.isEmpty() ? QJsonValue() : QJsonValue(model.configName);
    object[u"code"_s] = lesson.code.forModel(model);
    // The parameters and views it is read with, as a session holds them: the window opened on
    // the lesson shows what this session shows.
    QJsonObject params;
    const Session session = Session::fromParams(model.params);
    for (auto it = session.params.cbegin(); it != session.params.cend(); ++it)
        params[it.key()] = it.value();
    object[u"params"_s] = params;
    object[u"view"_s] = lesson.viewState(model.configName);
    QJsonArray items;
    for (const QString &item : text.items)
        items.append(LessonText::plain(item));
    object[u"items"_s] = items;
    object[u"html"_s] = text.html;
    QJsonArray numbers;
    for (const QString &key : text.keys) {
        const auto number = LessonNumbers::number(key, model, LayerLessonNumbers::entries());
        if (!number)
            continue;
        QJsonObject entry {{u"key"_s, key},
                           {u"description"_s, LessonNumbers::describe(key, LayerLessonNumbers::entries())},
                           {u"text"_s, number->text}};
        entry[u"value"_s] = number->value ? QJsonValue(*number->value) : QJsonValue();
        numbers.append(entry);
    }
    object[u"numbers"_s] = numbers;
    // Items no alternative of which this model fills: a mistake of the lesson, empty when none.
    object[u"unfilled"_s] = QJsonArray::fromStringList(text.unfilled);
    return object;
}

} // namespace

QList<CommandOption> lessonsOptions()
{
    return {{{u"json"_s},
             {},
             u"one JSON object: the texts, each item in plain text, and every number with its key, "
             "value, words and what it stands for"_s},
            CommandOptions::help()};
}

HelpPage lessonsHelp()
{
    HelpPage page;
    page.topic = u"lessons"_s;
    page.usage = {u"posenc lessons"_s, u"posenc lessons NAME [--json] [--preset NAME | --config FILE] [OPTIONS]"_s};
    page.section().paragraph(
        u"Without NAME, lists the lessons, one line each: NAME, a tab, TITLE. With NAME, prints the lesson's text as "
        "the window shows it, read for a model: the lesson's own, or the one --preset or --config names, every "
        "parameter flag over it. Where the lesson's point does not apply to the model (a lesson about RoPE's "
        "scaling for a model without RoPE) it says in one line what the lesson needs (exit 2). posenc --lesson NAME "
        "opens the window on one, and posenc export --lesson NAME -o FILE writes its figure."_s);
    QList<HelpItem> options;
    for (const CommandOption &option : lessonsOptions())
        options.append({option.spelling(), option.help});
    page.section(u"Options"_s).items(options);
    page.section(u"Parameters"_s)
        .paragraph(u"Every parameter flag (posenc help parameters), --preset NAME and --config FILE [--layer-type T]: "
                   "the model's parameters lie over the lesson's but those the lesson keeps (the length its figures "
                   "need, a prompt)."_s);
    page.section(u"Examples"_s)
        .examples(
            {{u"posenc lessons"_s, u"the lessons, NAME<TAB>TITLE"_s},
             {u"posenc lessons rope-scaling --preset qwen2-5-7b"_s, u"the lesson on RoPE's scalings, for Qwen2.5 7B"_s},
             {u"posenc lessons many-layers --config llama-4-scout --json"_s, u"its text and numbers as JSON"_s},
             {u"posenc --lesson why-sqrt-d --d-model 64"_s, u"the window on a lesson; flags override it"_s}});
    page.section(u"Exit status"_s)
        .items({{u"0"_s, u"the list or the text was printed"_s},
                {u"2"_s, u"an invalid option or parameter, or a model the lesson does not apply to"_s},
                {u"3"_s,
                 u"a lesson of the program that does not read (a mistake of the build), or a --config file "
                 "that cannot be read"_s}});
    return page;
}

int runLessonsCommand(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    CommandOptions::add(parser, lessonsOptions());
    ParamOptions::add(parser);
    parser.addPositionalArgument(u"name"_s, u"The lesson."_s);
    if (!parser.parse(arguments)) {
        err << "posenc lessons: " << oneLine(parser.errorText()) << " (see posenc lessons --help)\n";
        return ExitUsage;
    }
    if (parser.isSet(u"help"_s)) {
        out << HelpText::render(lessonsHelp(), HelpText::width());
        return ExitDone;
    }
    const QStringList names = parser.positionalArguments();
    if (names.isEmpty() && arguments.size() <= 1)
        return list(out, err);
    if (names.size() != 1) {
        err << "posenc lessons: expected one NAME (" << Lessons::names().join(u", "_s) << ") before the options; got "
            << (names.isEmpty() ? u"none"_s : names.join(u' ')) << '\n';
        return ExitUsage;
    }
    const Lesson *lesson = Lessons::find(names.first());
    if (!lesson) {
        err << "posenc lessons: NAME must be one of " << Lessons::names().join(u", "_s) << "; got "
            << ParamError::quoted(names.first()) << '\n';
        return ExitUsage;
    }
    if (parser.isSet(u"session"_s)) {
        err << "posenc lessons: --session: a lesson is read for a model: give --preset or --config\n";
        return ExitUsage;
    }
    const LessonOptions::Read read = LessonOptions::read(parser, *lesson);
    if (read.result.exitCode() != ExitDone) {
        for (const QString &line : read.result.messages())
            err << "posenc lessons: " << line << '\n';
        return read.result.exitCode();
    }
    const LessonText::Rendered text = lesson->explain(read.model);
    if (parser.isSet(u"json"_s))
        out << QJsonDocument(jsonText(*lesson, read.model, text)).toJson(QJsonDocument::Compact) << '\n';
    else
        out << plainText(*lesson, read.model, text);
    return ExitDone;
}

} // namespace posenc
