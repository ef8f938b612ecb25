#include "ModelPlot.h"

using namespace Qt::StringLiterals;

namespace posenc::ModelPlot {

QCPColorGradient categories(const QList<QColor> &colors)
{
    QCPColorGradient gradient;
    QMap<double, QColor> stops;
    const qsizetype n = std::max<qsizetype>(colors.size(), 1);
    for (qsizetype i = 0; i < colors.size(); ++i)
        stops.insert(n == 1 ? 0.0 : double(i) / double(n - 1), colors[i]);
    if (colors.size() == 1)
        stops.insert(1.0, colors.first());
    gradient.setColorStops(stops);
    gradient.setLevelCount(int(std::max<qsizetype>(n, 2)));
    gradient.setNanHandling(QCPColorGradient::nhTransparent);
    return gradient;
}

QColor positionColor(const QString &key, int rank, int ranks)
{
    if (key.startsWith(u"rope"_s)) {
        // Light to dark blue with theta (Okabe–Ito's blue at the dark end).
        const double t = ranks <= 1 ? 1.0 : double(rank) / double(ranks - 1);
        return QColor::fromRgbF(0.62 - 0.62 * t, 0.80 - 0.35 * t, 0.95 - 0.25 * t);
    }
    if (key == u"none"_s)
        return QColor(200, 200, 200);
    if (key == u"alibi"_s)
        return QColor(0, 158, 115);
    if (key == u"t5"_s || key == u"deberta"_s)
        return QColor(204, 121, 167);
    if (key == u"learned"_s || key == u"sinusoidal"_s)
        return QColor(150, 100, 60);
    if (key == u"linear"_s)
        return QColor(120, 190, 90);
    if (key == u"ssm"_s)
        return QColor(170, 160, 60);
    if (key == u"conv"_s)
        return QColor(240, 200, 120);
    return QColor(245, 245, 245);
}

QColor spanColor(const QString &key)
{
    if (key == u"full"_s)
        return QColor(70, 70, 70);
    if (key == u"window"_s)
        return QColor(230, 159, 0);
    if (key == u"chunk"_s)
        return QColor(213, 94, 0);
    return positionColor(key, 0, 1);
}

} // namespace posenc::ModelPlot
