#pragma once

// The figures of ALiBi, T5 and DeBERTa for real models, as a 14-pt slide (25.4 x 14.29 cm) and
// as a view of the window (800 x 480): each is built, and at 14 pt each plot it shows keeps at
// least a quarter of the area it has with its text at 4 pt, as tst_lessonslides asks of the
// lessons. The images are kept where POSENC_TEST_SHOTS says.
#include "render/FigureExporter.h"

#include "support/FigureBuilds.h"
#include "support/SlideAreas.h"
#include "support/TestShots.h"

#include <QTest>

namespace RelativeSlides {

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
            areas.append(SlideAreas::of(*built->plot()));
            if (points == 14.0)
                TestShots::save(FigureExporter::image(built->plot(), slide), u"%1-%2-slide"_s.arg(figure, model));
        }
        SlideAreas::compare(figure, areas[0], areas[1], model);
        const auto built = FigureBuilds::build(figure, params, view, state);
        QVERIFY2(!built->error(), qPrintable(model + u": "_s + FigureBuilds::errorOf(*built)));
        TestShots::save(FigureExporter::image(built->plot(), view), u"%1-%2-view"_s.arg(figure, model));
    }
}

} // namespace RelativeSlides
