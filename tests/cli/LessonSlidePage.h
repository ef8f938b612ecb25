// A lesson's page as posenc export --lesson builds it on a 14-pt slide, for the tests that read
// its panels (tst_lessonpanels, tst_lessonsharedscales).
#pragma once

#include "cli/LessonOptions.h"
#include "cli/LessonPage.h"
#include "cli/ParamOptions.h"

#include "render/FigureSize.h"

#include <QCommandLineParser>
#include <QString>
#include <QStringList>
#include <QTextStream>

#include <memory>
#include <optional>

namespace LessonSlidePage {

using namespace Qt::StringLiterals;
using namespace posenc;

inline const FigureSize &slide()
{
    static const FigureSize size = FigureSize::fromInches(QSizeF(25.4 / 2.54, 14.29 / 2.54), 150.0);
    return size;
}

// The lesson read for `arguments` (--preset P), as posenc export reads it; nothing where it does
// not apply.
inline std::optional<LessonOptions::Read> readFor(const Lesson &lesson, const QStringList &arguments)
{
    QCommandLineParser parser;
    ParamOptions::add(parser);
    if (!parser.parse(QStringList {u"posenc"_s} + arguments))
        qFatal("bad arguments");
    LessonOptions::Read read = LessonOptions::read(parser, lesson);
    if (read.result.exitCode() != 0)
        return std::nullopt;
    return read;
}

// The request posenc export --lesson NAME all makes of it on a 14-pt slide (without `all`, that of
// posenc export --lesson NAME).
inline LessonPage::Request pageOf(const Lesson &lesson, const LessonOptions::Read &read, bool all = true,
                           const FigureSize &page = slide())
{
    QString ignored;
    QTextStream err(&ignored);
    LessonPage::Request request;
    request.figures = LessonPage::figures(lesson, read.model, read.result.params, err, all, page.layout);
    FigureStyle style;
    style.fontPointSize = 14.0;
    for (const FigureDescriptor *figure : std::as_const(request.figures)) {
        request.states.append(LessonPage::state(lesson, figure->name(), read.model.configName, read.result.params));
        request.styles.append(LessonPage::styleOf(lesson, read.model, *figure, style));
    }
    request.engine = std::make_shared<const Engine>(read.result.params);
    request.page = page;
    request.threads = 1;
    request.chooseGrid = request.figures.size() > 1;
    request.subtitle = LessonPage::subtitle(read.model, request.figures);
    return request;
}

} // namespace LessonSlidePage
