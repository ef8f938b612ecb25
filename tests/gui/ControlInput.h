#pragma once

// A control of the parameters dock set as a user would, found by its object name.
#include "gui/ControlPanel.h"

#include <QAbstractButton>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSlider>
#include <QSpinBox>
#include <QTest>

namespace testing {

// Sets a control as a user would: typing into a field ends with editingFinished.
inline void setControl(posenc::ControlPanel &panel, const QString &name, const QString &value)
{
    using namespace Qt::StringLiterals;
    QWidget *w = panel.findChild<QWidget *>(name);
    QVERIFY2(w, qPrintable(name));
    if (auto *spin = qobject_cast<QSpinBox *>(w))
        spin->setValue(value.toInt());
    else if (auto *dspin = qobject_cast<QDoubleSpinBox *>(w))
        dspin->setValue(value.toDouble());
    else if (auto *slider = qobject_cast<QSlider *>(w))
        slider->setValue(value.toInt());
    else if (auto *combo = qobject_cast<QComboBox *>(w))
        combo->setCurrentIndex(value.toInt());
    else if (auto *edit = qobject_cast<QLineEdit *>(w)) {
        edit->setText(value);
        emit edit->editingFinished();
    } else if (auto *button = qobject_cast<QAbstractButton *>(w))
        button->setChecked(value == u"true"_s);
    else
        QFAIL(qPrintable(u"no way to set "_s + name));
}

} // namespace testing
