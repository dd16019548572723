# SPDX-License-Identifier: MIT
# Test programs shared by all suites live under $(BUILD)/tests/.
