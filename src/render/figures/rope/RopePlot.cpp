#include "RopePlot.h"

namespace posenc::RopePlot {

QColor typeColor(RopeType type)
{
    switch (type) {
    case RopeType::Default:
        return QColor(40, 40, 40);
    case RopeType::Linear:
        return QColor(0, 114, 178);
    case RopeType::Dynamic:
        return QColor(213, 94, 0);
    case RopeType::Yarn:
        return QColor(0, 158, 115);
    case RopeType::LongRope:
        return QColor(204, 121, 167);
    case RopeType::Llama3:
        return QColor(230, 159, 0);
    case RopeType::Proportional:
        return QColor(86, 180, 233);
    }
    return Qt::black;
}

} // namespace posenc::RopePlot
