#pragma once

// A figure's plots on a 14-pt slide against the same slide with its text at 4 pt: each plot it
// shows keeps at least a quarter of its area, the part of the slide the text takes from a plot
// (tst_lessonslides, RelativeSlides).
#include <qcustomplot.h>

#include <QString>
#include <QTest>

#include <algorithm>

namespace SlideAreas {

// The areas of the figure's plots, in layout order (colour scales aside); 0 for a panel given up on
// little room (FigureRoom::setDispensable), which the larger text may give up where the smaller
// does not.
inline QList<double> of(const QCustomPlot &plot)
{
    QList<double> areas;
    for (const QCPAxisRect *rect : plot.axisRects())
        if (!dynamic_cast<const QCPColorScaleAxisRectPrivate *>(rect))
            areas.append(rect->realVisibility() ? double(rect->width()) * rect->height() : 0.0);
    return areas;
}

// Plot i at 14 pt against plot i at 4 pt. The families figure alone draws fewer panels on a
// crowded page (as many as it holds, FamiliesRoom): there, where the panels are not the same ones in
// the same places, each plot drawn is held to a quarter of the largest at 4 pt.
inline void compare(const QString &figure, const QList<double> &at14, const QList<double> &at4, const QString &what)
{
    using namespace Qt::StringLiterals;
    QVERIFY2(std::any_of(at14.cbegin(), at14.cend(), [](double area) { return area > 0.0; }), qPrintable(what));
    if (at14.size() != at4.size()) {
        QVERIFY2(figure == u"families"_s && at14.size() < at4.size() && at14.size() >= std::min<qsizetype>(at4.size(), 6),
                 qPrintable(u"%1: %2 plots at 14 pt, %3 at 4 pt"_s.arg(what).arg(at14.size()).arg(at4.size())));
        const double largest = *std::max_element(at4.cbegin(), at4.cend());
        for (qsizetype i = 0; i < at14.size(); ++i)
            QVERIFY2(at14[i] == 0.0 || at14[i] >= 0.25 * largest,
                     qPrintable(u"%1, plot %2: %3 of the largest plot at 4 pt"_s.arg(what).arg(i).arg(at14[i] / largest)));
        return;
    }
    for (qsizetype i = 0; i < at14.size(); ++i)
        QVERIFY2(at14[i] == 0.0 || at14[i] >= 0.25 * at4[i],
                 qPrintable(u"%1, plot %2: %3 of its area at 4 pt"_s.arg(what).arg(i).arg(at14[i] / at4[i], 0, 'f', 2)));
}

} // namespace SlideAreas
