import { antiPhishingCalls } from '../../protocol/anti-phishing';
import { areaApi } from './client';

const { callApi, callApiResult } = areaApi(antiPhishingCalls);

/** The anti-phishing code (user/anti_phishing*): read quietly (the section shows its own state); changes report. */
export function fetchAntiPhishing() {
  return callApi('user/anti_phishing', {}, { loading: false });
}

export function setAntiPhishing(code: string) {
  return callApiResult('user/anti_phishing/set', { code });
}

export function clearAntiPhishing() {
  return callApiResult('user/anti_phishing/clear', {});
}
