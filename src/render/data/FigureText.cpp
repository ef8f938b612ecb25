#include "FigureText.h"

#include <QLocale>

using namespace Qt::StringLiterals;

namespace posenc::FigureText {

QString quantityLabel(Quantity quantity)
{
    switch (quantity) {
    case Quantity::Pe:
        return u"PE"_s;
    case Quantity::Embedding:
        return u"s·E"_s;
    case Quantity::Input:
        return u"X = s·E + PE"_s;
    case Quantity::Output:
        return u"Y = dropout(X)"_s;
    case Quantity::Mask:
        return u"mask (kept fraction)"_s;
    case Quantity::Similarity:
        return u"PE·PEᵀ"_s;
    case Quantity::Error:
        return u"float32-angle PE − exact PE"_s;
    }
    return {};
}

QString formatCount(std::int64_t n)
{
    return QLocale(QLocale::English).toString(static_cast<qlonglong>(n));
}

QString formatNumber(double value, int digits)
{
    // "6.03e+04" -> "6.03e4", "1.04e-04" -> "1.04e-4": short enough for a legend.
    QString text = QString::number(value, 'g', digits);
    text.replace(u"e+0"_s, u"e"_s).replace(u"e+"_s, u"e"_s).replace(u"e-0"_s, u"e-"_s);
    return text;
}

} // namespace posenc::FigureText
