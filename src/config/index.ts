export { closestKey, loadConfigFile, type OptionKind } from './load-config.js';
export {
  applyAliases,
  booleanSetting,
  checkSettings,
  describeSettings,
  numberOrOffSetting,
  numberSetting,
  parseSettingValue,
  type SettingAlias,
  type SettingsOf,
  type SettingsSchema,
  type SettingValue,
  wordSetting,
} from './settings.js';
