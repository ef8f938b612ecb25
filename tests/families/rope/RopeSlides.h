#pragma once

// The RoPE figures of two real models, Llama 3.1 8B and gpt-oss-20b, as a 14-pt slide (25.4 x
// 14.29 cm) and as a view of the window (800 x 480): each is built, and at 14 pt each of its
// plots keeps at least a quarter of the area it has with its text at 4 pt, as
// tst_lessonslides asks of the lessons. The images are kept where POSENC_TEST_SHOTS says.
#include "render/FigureExporter.h"

#include "support/FigureBuilds.h"
#include "support/RopeReference.h"
#include "support/TestShots.h"

#include <QTest>

namespace RopeSlides {

inline QList<double> plotAreas(const QCustomPlot &plot)
{
    QList<double> areas;
    for (const QCPAxisRect *rect : plot.axisRects())
        if (rect->realVisibility() && !dynamic_cast<const QCPColorScaleAxisRectPrivate *>(rect))
            areas.append(double(rect->width()) * rect->height());
    return areas;
}

inline void check(const QString &figure, const posenc::FigureState &state = {})
{
    using namespace Qt::StringLiterals;
    using namespace posenc;
    const FigureSize slide = FigureSize::fromInches(QSizeF(25.4 / 2.54, 14.29 / 2.54), 150.0);
    const FigureSize view = FigureSize::fromPixels(QSize(800, 480));
    for (const auto &[model, params] :
         {std::pair {u"llama-3.1"_s, roperef::llama31()}, std::pair {u"gpt-oss"_s, roperef::gptOss()}}) {
        QList<QList<double>> areas;
        for (const double points : {14.0, 4.0}) {
            FigureStyle style;
            style.fontPointSize = points;
            const auto built = FigureBuilds::build(figure, params, slide, state, style);
            QVERIFY2(!built->error(), qPrintable(model + u": "_s + FigureBuilds::errorOf(*built)));
            areas.append(plotAreas(*built->plot()));
            if (points == 14.0)
                TestShots::save(FigureExporter::image(built->plot(), slide), u"%1-%2-slide"_s.arg(figure, model));
        }
        QCOMPARE(areas[0].size(), areas[1].size());
        for (qsizetype i = 0; i < areas[0].size(); ++i)
            QVERIFY2(
                areas[0][i] >= 0.25 * areas[1][i],
                qPrintable(u"%1, plot %2: %3 of its area at 4 pt"_s.arg(model).arg(i).arg(areas[0][i] / areas[1][i])));
        const auto built = FigureBuilds::build(figure, params, view, state);
        QVERIFY2(!built->error(), qPrintable(model + u": "_s + FigureBuilds::errorOf(*built)));
        TestShots::save(FigureExporter::image(built->plot(), view), u"%1-%2-view"_s.arg(figure, model));
    }
}

} // namespace RopeSlides
