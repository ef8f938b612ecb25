#pragma once

// The one include of qcustomplot.h. QCustomPlot 2.1 uses Qt's foreach in two templates,
// which QT_NO_FOREACH removes for our code; it gets a range-for while its header is read.
#ifndef foreach
#define foreach(variable, container) for (variable : container)
#define POSENC_FOREACH_FOR_QCUSTOMPLOT
#endif
#include <qcustomplot.h>
#ifdef POSENC_FOREACH_FOR_QCUSTOMPLOT
#undef foreach
#undef POSENC_FOREACH_FOR_QCUSTOMPLOT
#endif
