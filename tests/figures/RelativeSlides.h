#pragma once

// The figures of ALiBi, T5 and DeBERTa for real models, as a 14-pt slide (25.4 x 14.29 cm) and
// as a view of the window (800 x 480): each is built, and at 14 pt each plot it shows keeps at
// least a quarter of the area it has with its text at 4 pt, as tst_lessonslides asks of the
// lessons. The images are kept where POSENC_TEST_SHOTS says.
#include "render/FigureExporter.h"

#include "support/FigureBuilds.h"
#include "support/TestShots.h"

#include <QTest>

#include <algorithm>

namespace RelativeSlides {

// The areas of the figure's plots, in layout order; 0 for a panel given up on little room
// (FigureRoom::setDispensable), which the larger text may give up where the smaller does not.
inline QList<double> plotAreas(const QCustomPlot &plot)
{
    QList<double> areas;
    for (const QCPAxisRect *rect : plot.axisRects())
        if (!dynamic_cast<const QCPColorScaleAxisRectPrivate *>(rect))
            areas.append(rect->realVisibility() ? double(rect->width()) * rect->height() : 0.0);
    return areas;
}

inline void check(const QString &figure, const QList<std::pair<QString, posenc::Params>> &models,
                  const posenc::FigureState &state = {})
{
    using namespace Qt::StringLiterals;
    using namespace posenc;
    const FigureSize slide = FigureSize::fromInches(QSizeF(25.4 / 2.54, 14.29 / 2.54), 150.0);
    const FigureSize view = FigureSize::fromPixels(QSize(800, 480));
    for (const auto &[model, params] : models) {
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
        // A crowded slide may draw fewer panels, the first of the list (the families figure's six
        // of seven): each is compared with itself at 4 pt.
        QVERIFY2(areas[0].size() <= areas[1].size() && areas[0].size() >= std::min<qsizetype>(areas[1].size(), 6),
                 qPrintable(u"%1: %2 plots at 14 pt, %3 at 4 pt"_s.arg(model).arg(areas[0].size()).arg(areas[1].size())));
        QVERIFY2(std::any_of(areas[0].cbegin(), areas[0].cend(), [](double area) { return area > 0.0; }),
                 qPrintable(model));
        for (qsizetype i = 0; i < areas[0].size(); ++i)
            QVERIFY2(
                areas[0][i] == 0.0 || areas[0][i] >= 0.25 * areas[1][i],
                qPrintable(u"%1, plot %2: %3 of its area at 4 pt"_s.arg(model).arg(i).arg(areas[0][i] / areas[1][i])));
        const auto built = FigureBuilds::build(figure, params, view, state);
        QVERIFY2(!built->error(), qPrintable(model + u": "_s + FigureBuilds::errorOf(*built)));
        TestShots::save(FigureExporter::image(built->plot(), view), u"%1-%2-view"_s.arg(figure, model));
    }
}

} // namespace RelativeSlides
