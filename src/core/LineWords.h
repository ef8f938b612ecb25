#pragma once

#include <QString>
#include <QtCore/qnamespace.h>

namespace posenc::LineWords {

// The word a sentence uses for a line drawn with `style` ("the dotted lines"): a lesson that points
// at a figure's lines takes the word from the pen its figure draws them with.
inline QString word(Qt::PenStyle style)
{
    switch (style) {
    case Qt::DashLine:
        return QStringLiteral("dashed");
    case Qt::DotLine:
        return QStringLiteral("dotted");
    case Qt::DashDotLine:
    case Qt::DashDotDotLine:
        return QStringLiteral("dash-dotted");
    default:
        return QStringLiteral("solid");
    }
}

} // namespace posenc::LineWords
